CREATE TABLE "record_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"record_id" text NOT NULL,
	"message" text NOT NULL,
	"contact" text,
	"reporter_hash" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "record_reports" ADD CONSTRAINT "record_reports_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_reports" ADD CONSTRAINT "record_reports_closed_by_accounts_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_reports_open_idx" ON "record_reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "record_reports_record_idx" ON "record_reports" USING btree ("record_id");