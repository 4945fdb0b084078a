-- The transparency log is evidence: its entries, tree nodes and signed checkpoints are never
-- changed or removed once written (only log_head, the pointer to the end, moves).
CREATE OR REPLACE FUNCTION prs_refuse_log_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'the transparency log (%) is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER log_entries_append_only
  BEFORE UPDATE OR DELETE ON log_entries
  FOR EACH ROW EXECUTE FUNCTION prs_refuse_log_change();
--> statement-breakpoint
CREATE TRIGGER log_nodes_append_only
  BEFORE UPDATE OR DELETE ON log_nodes
  FOR EACH ROW EXECUTE FUNCTION prs_refuse_log_change();
--> statement-breakpoint
CREATE TRIGGER log_checkpoints_append_only
  BEFORE UPDATE OR DELETE ON log_checkpoints
  FOR EACH ROW EXECUTE FUNCTION prs_refuse_log_change();
