import type { records, RecordStatus } from "@/drizzle/schema";

/*
 * The shapes of a link between records, shared by the public view (public-view.ts) and the
 * claim contract (lib/claims/types.ts). A leaf: it imports nothing of lib, so a claim type
 * can name them without importing the view.
 */

type RecordRow = typeof records.$inferSelect;

/** What a view needs to know about a record another one rests on. */
export type LinkTarget = Pick<
  RecordRow,
  "id" | "accountId" | "environment" | "claimType" | "subject" | "status" | "evidenceLevel" | "visibility" | "expiresAt" | "statusChangedAt" | "evidencePublic"
>;
export type LinkedTarget = { role: string; target: LinkTarget };

/**
 * A linked record as the public may see it: its standing now (`active` while it is active,
 * `lapsed` otherwise) and, only while it is public and issued, who it is. A private or
 * unissued target is never named.
 */
export type LinkedStanding = {
  role: string;
  status: RecordStatus;
  standing: "active" | "lapsed";
  record: { verification_id: string; claim_type: string; subject: string; certificate_url: string } | null;
};
