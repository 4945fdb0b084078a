-- The lifecycle history is evidence: once written it is never changed or removed.
CREATE OR REPLACE FUNCTION prs_refuse_history_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'record_history is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER record_history_append_only
  BEFORE UPDATE OR DELETE ON record_history
  FOR EACH ROW EXECUTE FUNCTION prs_refuse_history_change();
