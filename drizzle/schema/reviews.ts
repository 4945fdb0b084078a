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
    /**
     * approve → issued; approve_first → the first of two approvals of a high-risk submission (four eyes), still pending; reject → rejected; rerun_issued / rerun_checked / rerun_unchanged for the automatic re-check;
     * staff_suspend / staff_reinstate / staff_revoke for a staff action on an issued record (its public
     * reason in `reason`, the report it answered in `notes`). A plain text column: no migration per value.
     */
    decision: text("decision", {
      enum: ["approve", "approve_first", "reject", "rerun_issued", "rerun_checked", "rerun_unchanged", "rerun_failed", "staff_suspend", "staff_reinstate", "staff_revoke"],
    }).notNull(),
    /** The checklist items the reviewer ticked, by key. */
    checklist: jsonb("checklist").$type<string[]>().notNull(),
    notes: text("notes"),
    /** Rejection reason shown to the customer. */
    reason: text("reason"),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [index("review_decisions_record_idx").on(t.recordId, t.seq)],
);

/**
 * Problems reported by anyone from a public certificate ("this is not us", "this payee is a
 * scam"): they reach the reviewers' console. The reporter's address is kept only as a
 * salted hash, to spot floods; a contact email only when they chose to give one.
 */
export const recordReports = pgTable(
  "record_reports",
  {
    id: text("id").primaryKey(),
    recordId: text("record_id").notNull().references(() => records.id),
    message: text("message").notNull(),
    contact: text("contact"),
    reporterHash: text("reporter_hash").notNull(),
    status: text("status", { enum: ["open", "closed"] }).notNull().default("open"),
    createdAt: ts("created_at").notNull().defaultNow(),
    closedAt: ts("closed_at"),
    closedBy: text("closed_by").references(() => accounts.id),
  },
  (t) => [index("record_reports_open_idx").on(t.status, t.createdAt), index("record_reports_record_idx").on(t.recordId)],
);
