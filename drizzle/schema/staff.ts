import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

/**
 * The staff audit trail (issue 39): one row per staff action — a submission approved (or, for
 * a high-risk one, approved first of two), rejected or re-run; a record suspended, reinstated or
 * revoked; an organisation application decided; a plan request decided; a plan or role set; an
 * account suspended or reinstated; a report closed. Who (the staff account, or the operator at
 * the CLI), when, why, and the subject before and after. Append-only: a database trigger refuses
 * UPDATE and DELETE. Admins read it in /admin/audit and export it as CSV.
 */
export const staffAudit = pgTable(
  "staff_audit",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    at: ts("at").notNull().defaultNow(),
    /** The reviewer or admin who acted; null for the operator at the CLI without `--by`. */
    staffAccountId: text("staff_account_id").references(() => accounts.id),
    /** What was done, e.g. `submission.approve`, `record.suspend`, `account.suspend` (lib/staff/audit.ts). */
    action: text("action").notNull(),
    /** What it was done to: `record`, `organisation_application`, `plan_request`, `account`, `report`. */
    subjectKind: text("subject_kind").notNull(),
    subjectId: text("subject_id").notNull(),
    /** The customer account it concerns (the record's owner, the applicant…). */
    accountId: text("account_id").references(() => accounts.id),
    reason: text("reason"),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
  },
  (t) => [index("staff_audit_account_idx").on(t.accountId, t.seq), index("staff_audit_staff_idx").on(t.staffAccountId, t.seq)],
);

/**
 * Mail waiting to be sent by the outbox worker (never inside a request): notices to an account
 * (lib/notices) and report outcomes. Sent once; a failed send is retried with backoff up to
 * `MAIL_MAX_ATTEMPTS`, then kept with its last error.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    to: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("body").notNull(),
    createdAt: createdAt(),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    sentAt: ts("sent_at"),
    lastError: text("last_error"),
  },
  (t) => [index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`sent_at is null`)],
);
