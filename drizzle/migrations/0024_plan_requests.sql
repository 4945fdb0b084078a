CREATE TABLE "plan_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"plan" text NOT NULL,
	"note" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "created_by" text DEFAULT 'signup' NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_requests" ADD CONSTRAINT "plan_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_requests" ADD CONSTRAINT "plan_requests_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_requests_account_idx" ON "plan_requests" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_requests_one_pending_idx" ON "plan_requests" USING btree ("account_id") WHERE status = 'pending';--> statement-breakpoint
-- Accounts made before this column: a self sign-up always has a password until its address is confirmed
-- (a mailed link that voids it confirms it at the same time), so an unconfirmed account without one was made by the operator.
UPDATE "accounts" SET "created_by" = 'operator' WHERE "password_hash" IS NULL AND "email_confirmed_at" IS NULL;
