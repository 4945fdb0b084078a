CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"used_by" text,
	"delete_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"lei" text,
	"applicant" jsonb NOT NULL,
	"documents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"register" jsonb,
	"legal_name" text,
	"jurisdiction" text,
	"checklist" jsonb,
	"domains" jsonb,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"reason" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"account_id" text PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"name_key" text NOT NULL,
	"lei" text,
	"jurisdiction" text,
	"basis" text NOT NULL,
	"status" text DEFAULT 'verified' NOT NULL,
	"status_reason" text,
	"verified_at" timestamp with time zone NOT NULL,
	"domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verification_id" text,
	"checked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "environment" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_verifications" ADD CONSTRAINT "organisation_verifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_verifications" ADD CONSTRAINT "organisation_verifications_decided_by_accounts_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_account_idx" ON "files" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "files_delete_after_idx" ON "files" USING btree ("delete_after");--> statement-breakpoint
CREATE INDEX "organisation_verifications_account_idx" ON "organisation_verifications" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "organisation_verifications_status_idx" ON "organisation_verifications" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organisations_lei_idx" ON "organisations" USING btree ("lei");--> statement-breakpoint
CREATE INDEX "organisations_name_key_idx" ON "organisations" USING btree ("name_key");