import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { accounts, staffAudit } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";

/**
 * The staff audit trail (drizzle/schema/staff.ts): every staff action, written in the
 * transaction that makes it, so an action without its audit row cannot commit. Append-only.
 */
export const AUDIT_ACTIONS = [
  "submission.approve", "submission.approve_first", "submission.reject", "submission.rerun",
  "record.suspend", "record.reinstate", "record.revoke",
  "organisation.approve", "organisation.approve_first", "organisation.reject",
  "plan_request.approve", "plan_request.approve_first", "plan_request.decline", "account.set_plan", "account.set_role", "account.set_live_exchange",
  "account.suspend", "account.reinstate", "report.close",
  "organisation.verify", "organisation.remove", "key.revoke", "signing_key.rotate",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditSubject = "record" | "organisation_application" | "plan_request" | "account" | "report" | "api_key" | "signing_key";

export type AuditEntry = {
  /** The staff account; null: the operator at the CLI. */
  staffAccountId: string | null;
  action: AuditAction;
  subjectKind: AuditSubject;
  subjectId: string;
  accountId: string | null;
  reason?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  at: Date;
};

export async function writeAudit(tx: DbOrTx, ...entries: AuditEntry[]) {
  if (entries.length === 0) return;
  await tx.insert(staffAudit).values(entries.map((e) => ({
    at: e.at, staffAccountId: e.staffAccountId, action: e.action, subjectKind: e.subjectKind, subjectId: e.subjectId,
    accountId: e.accountId, reason: e.reason ?? null, before: e.before ?? null, after: e.after ?? null,
  })));
}

export type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

/** The newest entries first, `limit` at a time, before `beforeSeq` (keyset pages); optionally for one account or staff member. */
export async function listAudit(db: Db, f: { accountId?: string; staffAccountId?: string; beforeSeq?: number; limit?: number } = {}) {
  const conds: SQL[] = [];
  if (f.accountId) conds.push(eq(staffAudit.accountId, f.accountId));
  if (f.staffAccountId) conds.push(eq(staffAudit.staffAccountId, f.staffAccountId));
  if (f.beforeSeq) conds.push(lt(staffAudit.seq, f.beforeSeq));
  return db
    .select({
      seq: staffAudit.seq, at: staffAudit.at, staffAccountId: staffAudit.staffAccountId, staffEmail: accounts.email,
      action: staffAudit.action, subjectKind: staffAudit.subjectKind, subjectId: staffAudit.subjectId, accountId: staffAudit.accountId,
      reason: staffAudit.reason, before: staffAudit.before, after: staffAudit.after,
    })
    .from(staffAudit)
    .leftJoin(accounts, eq(accounts.id, staffAudit.staffAccountId))
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(desc(staffAudit.seq))
    .limit(Math.min(Math.max(f.limit ?? 100, 1), 10_000));
}

/** Who acted, as the console and CSV show it. */
export const auditAuthor = (r: Pick<AuditRow, "staffAccountId" | "staffEmail">) => r.staffEmail ?? (r.staffAccountId ? r.staffAccountId : "operator (CLI)");

/** The CSV export's columns, in order. */
export const AUDIT_CSV_COLUMNS = ["seq", "at", "staff_account_id", "staff_email", "action", "subject_kind", "subject_id", "account_id", "reason", "before", "after"] as const;

/**
 * A cell as a spreadsheet may safely open it (OWASP "CSV injection"): text that a spreadsheet
 * would read as a formula — starting with =, +, -, @, a tab or a carriage return — is prefixed
 * with an apostrophe. Reasons and subjects are typed by staff and customers.
 */
export const csvSafe = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** One audit entry as a CSV row (AUDIT_CSV_COLUMNS): before/after as JSON text. */
export function auditCsvRow(r: AuditRow): string[] {
  return [
    String(r.seq), r.at.toISOString(), r.staffAccountId ?? "operator", r.staffEmail ?? "", r.action, r.subjectKind, r.subjectId, r.accountId ?? "",
    r.reason ?? "", r.before ? JSON.stringify(r.before) : "", r.after ? JSON.stringify(r.after) : "",
  ].map(csvSafe);
}
