CREATE TABLE "record_values" (
	"record_id" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"field" text NOT NULL,
	CONSTRAINT "record_values_record_id_kind_value_pk" PRIMARY KEY("record_id","kind","value")
);
--> statement-breakpoint
ALTER TABLE "record_values" ADD CONSTRAINT "record_values_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_values_lookup_idx" ON "record_values" USING btree ("kind","value");