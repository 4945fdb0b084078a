CREATE TABLE "record_links" (
	"record_id" text NOT NULL,
	"role" text NOT NULL,
	"target_id" text NOT NULL,
	CONSTRAINT "record_links_record_id_role_pk" PRIMARY KEY("record_id","role")
);
--> statement-breakpoint
ALTER TABLE "record_links" ADD CONSTRAINT "record_links_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_links" ADD CONSTRAINT "record_links_target_id_records_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_links_target_idx" ON "record_links" USING btree ("target_id");