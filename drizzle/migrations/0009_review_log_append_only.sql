-- The reviewers' audit log is evidence: once written it is never changed or removed.
CREATE TRIGGER review_decisions_append_only
  BEFORE UPDATE OR DELETE ON review_decisions
  FOR EACH ROW EXECUTE FUNCTION prs_refuse_history_change();
