ALTER TABLE "api_keys" RENAME COLUMN "display_prefix" TO "key_prefix";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_four" text;--> statement-breakpoint
-- Keys made before this kept their first 12 characters: the prefix of a sandbox key, and the
-- prefix plus three characters of the secret for a live key. Keep the prefix only (what the
-- contract stores: the prefix and the last four). Their last four were never kept, so
-- last_four stays null and they show as `prs_live_…????` (told apart by their key id).
UPDATE "api_keys" SET "key_prefix" = CASE "environment" WHEN 'live' THEN 'prs_live_' ELSE 'prs_sandbox_' END;
