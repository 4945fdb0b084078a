-- Issue 29: the directory at a million records. Its order (newest first) read from an index of
-- the listed records, so a page, and a search for a common word, stops at the 26th row.
CREATE INDEX "records_listed_recent_idx" ON "records" USING btree ("created_at","id") WHERE environment = 'live' and visibility = 'public' and status = 'active';
--> statement-breakpoint
-- The planner picks between that walk and the trigram indexes by how many rows it expects a
-- search to match; with the default sample (100 histogram buckets) a word in 1 of 40 names was
-- expected in 110 rows of a million, not 25,000, and every match was fetched and sorted (~100 ms).
ALTER TABLE "records" ALTER COLUMN "subject" SET STATISTICS 1000, ALTER COLUMN "claim" SET STATISTICS 1000;
--> statement-breakpoint
-- On PostgreSQL the trigram indexes take new rows into GIN's pending list (fastupdate), merged
-- by autovacuum or once the list passes 1 MB: a record no longer updates some 60 trigram posting
-- lists one by one (a 250-row batch spent ~300 ms in them at a million records). PGlite runs no
-- autovacuum, so there the indexes stay as migration 0028 made them (fastupdate off).
DO $$
BEGIN
  IF version() NOT LIKE '%PGlite%' THEN
    ALTER INDEX "records_subject_trgm_idx" SET (fastupdate = on, gin_pending_list_limit = 1024);
    ALTER INDEX "records_claim_trgm_idx" SET (fastupdate = on, gin_pending_list_limit = 1024);
  END IF;
END $$;
