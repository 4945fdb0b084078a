-- Issue 29: a mandate key id is unique within its account, not across the service (no squatting).
-- The old primary key (key_id alone) is PostgreSQL's default-named mandate_keys_pkey.
ALTER TABLE "mandate_keys" DROP CONSTRAINT "mandate_keys_pkey";--> statement-breakpoint
ALTER TABLE "mandate_keys" ADD CONSTRAINT "mandate_keys_pkey" PRIMARY KEY("account_id","key_id");
