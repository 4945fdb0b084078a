CREATE TABLE "record_history_counts" (
	"record_id" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_history_counts" ADD CONSTRAINT "record_history_counts_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_history_record_at_idx" ON "record_history" USING btree ("record_id","at","seq");--> statement-breakpoint
-- Each record's history count, kept by the database on every insert into record_history
-- (which is append-only: migration 0001), one upsert per record per statement.
CREATE OR REPLACE FUNCTION prs_count_history() RETURNS trigger AS $$
BEGIN
  INSERT INTO record_history_counts (record_id, n)
    SELECT record_id, count(*)::int FROM added GROUP BY record_id
  ON CONFLICT (record_id) DO UPDATE SET n = record_history_counts.n + EXCLUDED.n;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER record_history_count
  AFTER INSERT ON record_history
  REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION prs_count_history();
--> statement-breakpoint
-- The counts so far. CREATE TRIGGER above holds a lock that keeps other inserts out until the
-- migration commits, so this count and the trigger's meet exactly.
INSERT INTO record_history_counts (record_id, n)
  SELECT record_id, count(*)::int FROM record_history GROUP BY record_id
ON CONFLICT (record_id) DO UPDATE SET n = EXCLUDED.n;
