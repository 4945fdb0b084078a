-- Issue 29: anonymous endpoints. The directory searches through trigram indexes (pg_trgm,
-- shipped with PostgreSQL and loaded into PGlite by lib/db/client.ts and scripts/pglite-worker.mjs).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "status_list_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"list" integer NOT NULL,
	"status_index" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "status_list_changes_list_idx" ON "status_list_changes" USING btree ("list","seq");--> statement-breakpoint
CREATE INDEX "records_subject_trgm_idx" ON "records" USING gin ("subject" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "records_claim_trgm_idx" ON "records" USING gin ("claim" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
-- Status lists are updated, not rebuilt (lib/vc/status-list.ts): every change that can move a
-- record's bit is noted with the record's status index, whoever makes it.
CREATE OR REPLACE FUNCTION prs_note_status_list_change() RETURNS trigger AS $$
DECLARE
  idx integer;
BEGIN
  IF TG_TABLE_NAME = 'vc_status_entries' THEN
    idx := NEW.status_index;
  ELSE
    SELECT e.status_index INTO idx FROM vc_status_entries e WHERE e.record_id = NEW.id;
  END IF;
  IF idx IS NOT NULL THEN
    INSERT INTO status_list_changes (list, status_index) VALUES (idx / 131072, idx);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER records_status_list_change
  AFTER UPDATE OF status, expires_at, status_changed_at, environment ON records
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.status_changed_at IS DISTINCT FROM NEW.status_changed_at OR OLD.environment IS DISTINCT FROM NEW.environment)
  EXECUTE FUNCTION prs_note_status_list_change();
--> statement-breakpoint
CREATE TRIGGER vc_status_entries_status_list_change
  AFTER INSERT ON vc_status_entries
  FOR EACH ROW EXECUTE FUNCTION prs_note_status_list_change();
