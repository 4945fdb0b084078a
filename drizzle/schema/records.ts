import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import type { LookupKind } from "@/lib/format/normalize";
import { createdAt, ts } from "./columns";

export const RECORD_STATUSES = [
  "pending_review", "active", "suspended", "revoked", "expired", "superseded", "rejected",
] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/** How a record was checked, weakest first (spec 2.2): stated by the account, checked by a source, confirmed by a reviewer. */
export const EVIDENCE_LEVELS = ["participant_attested", "source_verified", "evidence_verified"] as const;

export const SEARCH_WORD_GLUE = "[.@/:_-]+";

export const records = pgTable(
  "records",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    environment: text("environment", { enum: ["sandbox", "live"] }).notNull(),
    claimType: text("claim_type").notNull(),
    subject: text("subject").notNull(),
    claim: text("claim").notNull(),
    evidenceLevel: text("evidence_level", { enum: EVIDENCE_LEVELS }).notNull(),
    visibility: text("visibility", { enum: ["public", "private"] }).notNull(),
    /** The part of the evidence that is published and signed. */
    evidencePublic: jsonb("evidence_public").$type<Record<string, unknown>>().notNull(),
    /** Evidence kept for reviewers only; never published, never signed. */
    evidencePrivate: jsonb("evidence_private").$type<Record<string, unknown>>(),
    status: text("status", { enum: RECORD_STATUSES }).notNull(),
    reviewReason: text("review_reason"),
    issuedAt: ts("issued_at"),
    validFrom: ts("valid_from"),
    expiresAt: ts("expires_at"),
    recheckAt: ts("recheck_at"),
    statusChangedAt: ts("status_changed_at").notNull(),
    supersededBy: text("superseded_by"),
    /** Requested validity end, kept while the submission waits for review. */
    requestedExpiresAt: ts("requested_expires_at"),
    signingKeyId: text("signing_key_id"),
    payloadSha256: text("payload_sha256"),
    signature: text("signature"),
    signedPayload: jsonb("signed_payload").$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index("records_account_idx").on(t.accountId, t.environment, t.createdAt),
    index("records_expiry_idx").on(t.expiresAt),
    // The re-check sweep's queue, per environment (live first, sandbox on a budget of its own).
    index("records_recheck_idx").on(t.environment, t.recheckAt).where(sql`recheck_at is not null and status in ('active', 'suspended')`),
    /** The reviewers' queue: pending submissions, oldest first. */
    index("records_pending_idx").on(t.createdAt).where(sql`status = 'pending_review'`),
    /** An account's verified domains (account-profile.ts): its live active records by type, in subject order. */
    index("records_account_domains_idx").on(t.accountId, t.claimType, t.subject).where(sql`environment = 'live' and status = 'active'`),
    /**
     * The directory's order (newest first, the cursor's (created_at, id)) over the listed records:
     * read backwards (newest first), a page is the first rows of this index, and a search for a common word walks it and stops
     * at the 26th match instead of sorting every match (migration 0031).
     */
    index("records_listed_recent_idx").on(t.createdAt, t.id).where(sql`environment = 'live' and visibility = 'public' and status = 'active'`),
    /**
     * The directory's search: the words of the listed records (migration 0032; it replaced the trigram
     * indexes of 0028, whose searches read the long posting lists of every common trigram).
     * fastupdate off on PGlite: no pending list, which only a vacuum would flush (PGlite runs none);
     * on PostgreSQL migration 0032 turns it on (1 MB list, merged by autovacuum) so an insert does not
     * update a posting list per word.
     */
    index("records_search_words_idx").using("gin", sql`search_words`).where(sql`environment = 'live' and visibility = 'public' and status = 'active'`).with({ fastupdate: false }),
  ],
);

/** Append-only: a database trigger (migration 0001) refuses UPDATE and DELETE. */
export const recordHistory = pgTable(
  "record_history",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    recordId: text("record_id").notNull().references(() => records.id),
    status: text("status", { enum: RECORD_STATUSES }).notNull(),
    at: ts("at").notNull(),
    reason: text("reason"),
    by: text("by").notNull(),
  },
  (t) => [
    /** A record's latest entries, and older pages of them (lib/record-model/history-page.ts): `ORDER BY seq DESC LIMIT n`. */
    index("record_history_record_idx").on(t.recordId, t.seq),
    /** The entry in force at an instant (status?at=, lib/public/record/status-at.ts): the latest `at` at or before it, by index. */
    index("record_history_record_at_idx").on(t.recordId, t.at, t.seq),
  ],
);

/**
 * How many entries each record's history holds, kept by a statement trigger on
 * record_history inserts (migration 0027), so an answer can say "the latest 50 of N" without
 * counting N rows (lib/record-model/history-page.ts).
 */
export const recordHistoryCounts = pgTable("record_history_counts", {
  recordId: text("record_id").primaryKey().references(() => records.id),
  n: integer("n").notNull(),
});

/**
 * What a record rests on, as data: `record_id` depends on `target_id` in the given `role`
 * (an agent on its principal's company record, a listing on its domain, payee and licence
 * records). Written with the record, in the same statement or transaction; the record's
 * public view reads the standing of its targets through it (lib/public/record/public-view.ts).
 */
export const recordLinks = pgTable(
  "record_links",
  {
    recordId: text("record_id").notNull().references(() => records.id),
    role: text("role").notNull(),
    targetId: text("target_id").notNull().references(() => records.id),
  },
  (t) => [
    primaryKey({ columns: [t.recordId, t.role] }),
    /** Who depends on a record: the dependents whose standing a change of it moves. */
    index("record_links_target_idx").on(t.targetId),
  ],
);

/**
 * The values a record can be looked up by (GET /api/v1/lookup), as data: one row per value
 * its claim type declares (`lookupValues`), already in the kind's normal form
 * (lib/format/normalize.ts), with the field of the record it came from. Written with the
 * record, in the same statement; only for live, public records, the only ones a lookup can
 * find. A lookup is one probe of (kind, value).
 */
export const recordValues = pgTable(
  "record_values",
  {
    recordId: text("record_id").notNull().references(() => records.id),
    kind: text("kind").$type<LookupKind>().notNull(),
    value: text("value").notNull(),
    /** Where in the record the value is (`subject`, `evidence.payee.value`): the lookup's `matched_field`. */
    field: text("field").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.recordId, t.kind, t.value] }),
    index("record_values_lookup_idx").on(t.kind, t.value),
  ],
);
