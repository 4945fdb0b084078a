ALTER TABLE "events" ADD COLUMN "record_id" text;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "response_excerpt" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "events_account_recent_idx" ON "events" USING btree ("account_id","environment","created_at","id");--> statement-breakpoint
CREATE INDEX "events_record_idx" ON "events" USING btree ("record_id","created_at") WHERE record_id is not null;--> statement-breakpoint
-- Events written before this migration: their record, from the payload (GET /api/v1/events?record_id=).
UPDATE "events" SET "record_id" = ("payload"::jsonb) #>> '{data,record,verification_id}' WHERE "record_id" IS NULL AND "created_at" > now() - interval '30 days';
