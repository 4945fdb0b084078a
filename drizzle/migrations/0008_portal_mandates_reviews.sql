CREATE TABLE "mandate_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"environment" text NOT NULL,
	"algorithm" text DEFAULT 'Ed25519' NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "review_decisions" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"record_id" text NOT NULL,
	"reviewer_account_id" text NOT NULL,
	"decision" text NOT NULL,
	"checklist" jsonb NOT NULL,
	"notes" text,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mandate_keys" ADD CONSTRAINT "mandate_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_decisions" ADD CONSTRAINT "review_decisions_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_decisions" ADD CONSTRAINT "review_decisions_reviewer_account_id_accounts_id_fk" FOREIGN KEY ("reviewer_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_tokens" ADD CONSTRAINT "login_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mandate_keys_account_idx" ON "mandate_keys" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "review_decisions_record_idx" ON "review_decisions" USING btree ("record_id","seq");--> statement-breakpoint
CREATE INDEX "login_tokens_account_idx" ON "login_tokens" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "records_pending_idx" ON "records" USING btree ("created_at") WHERE status = 'pending_review';