import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { ts } from "./columns";
import { records } from "./records";

/**
 * The reviewers' audit log. Append-only: a database trigger refuses UPDATE and DELETE.
 * One row per decision or automatic re-run on a pending submission.
 */
export const reviewDecisions = pgTable(
  "review_decisions",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    recordId: text("record_id").notNull().references(() => records.id),
    reviewerAccountId: text("reviewer_account_id").notNull().references(() => accounts.id),
    /** approve → issued; reject → rejected; rerun_issued / rerun_unchanged for the automatic re-check. */
    decision: text("decision", { enum: ["approve", "reject", "rerun_issued", "rerun_unchanged", "rerun_failed"] }).notNull(),
    /** The checklist items the reviewer ticked, by key. */
    checklist: jsonb("checklist").$type<string[]>().notNull(),
    notes: text("notes"),
    /** Rejection reason shown to the customer. */
    reason: text("reason"),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [index("review_decisions_record_idx").on(t.recordId, t.seq)],
);
