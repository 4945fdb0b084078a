import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, recordReports, records, reviewDecisions } from "@/drizzle/schema";
import type { Role } from "@/lib/accounts/types";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { notify } from "@/lib/notices/notify";
import { mailReportOutcome } from "@/lib/reports/report-problem";
import { writeAudit } from "@/lib/audit/staff-audit";
import { parseOrThrow } from "@/lib/http/validation";
import { RECORD_ID_RE } from "@/lib/ids";
import { applyTransition } from "@/lib/records/apply-transition";
import { TRANSITIONS } from "@/lib/records/change-lifecycle";
import { effectiveStatus, isIssued } from "@/lib/record-model/effective-status";
import { recheckBeforeReinstate, refuseReinstateWhilePartsLapsed, storeRecheck } from "@/lib/records/reinstate-rules";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import { staffActor } from "@/lib/record-model/standing-actor";
import { invalidateStatus } from "@/lib/record-model/status-cache";

export const STAFF_OPERATIONS = ["suspend", "reinstate", "revoke"] as const;
export type StaffOperation = (typeof STAFF_OPERATIONS)[number];
const NOTICE_OF = { suspend: "record.suspended", reinstate: "record.reinstated", revoke: "record.revoked" } as const;

/** The reason is shown publicly on the certificate ("Suspended by Proof Records: ‹reason›"). */
export const staffActionSchema = z.strictObject({
  operation: z.enum(STAFF_OPERATIONS),
  reason: z.string().trim().min(3).max(500).regex(noControl, `The reason ${NO_CONTROL}`).regex(noHiddenText, `The reason ${NO_HIDDEN}`),
  /** The problem report this action answers: closed with it, in the same transaction. */
  report_id: z.string().max(64).optional(),
});
export type StaffActionInput = z.input<typeof staffActionSchema>;

/** Who acts: a reviewer or admin account (console), or the operator at the CLI (`null` account: `staff:operator`). */
export type Staff = { accountId: string; role: Role } | { accountId: null; role: "operator" };

/**
 * CONTRACT "What still stands" → staff actions: reviewers and admins (and the operator CLI)
 * suspend, reinstate or revoke any issued record, of any account, with a public reason. The
 * history says `staff:<accountId>` (shown as `staff`), the move is announced as for the owner
 * (record.status_changed, transparency log, dependents follow), and the review audit log gets
 * a `staff_<operation>` row (an action at the CLI without an account is audited by the
 * record's history alone). Staff may lift any suspension — the owner's, the system's or
 * staff's — except that a record resting on others is not reinstated while a part is lapsed.
 */
export async function staffAction(db: Db, staff: Staff, recordId: string, raw: unknown) {
  if (staff.role !== "reviewer" && staff.role !== "admin" && staff.role !== "operator") {
    throw new ApiError("forbidden", "Only reviewers and admins can act on a customer's record.");
  }
  const input = parseOrThrow(staffActionSchema, raw);
  const notFound = () => new ApiError("record_not_found", `No issued record ${recordId.slice(0, 40)}.`, "id");
  if (!RECORD_ID_RE.test(recordId)) throw notFound();
  // A due re-check runs before a reinstatement, staff's too, outside the transaction (lib/records/reinstate-rules.ts).
  let rechecked: Date | null = null;
  if (input.operation === "reinstate") {
    const [pre] = await db.select().from(records).where(eq(records.id, recordId));
    if (!pre || !isIssued(pre.status)) throw notFound();
    refuseOwnAccount(staff, pre);
    if (TRANSITIONS[effectiveStatus(pre, Date.now()).status]?.reinstate) rechecked = await recheckBeforeReinstate(pre);
  }
  const body = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(records).where(eq(records.id, recordId)).for("update");
    if (!row || !isIssued(row.status)) throw notFound();
    refuseOwnAccount(staff, row);
    const at = new Date();
    const current = effectiveStatus(row, at.getTime()).status;
    const next = TRANSITIONS[current]?.[input.operation];
    if (!next) throw new ApiError("invalid_transition", `A ${current} record cannot be moved with '${input.operation}'.`, "operation");
    if (input.operation === "reinstate") await refuseReinstateWhilePartsLapsed(tx, row);
    if (input.report_id) {
      const [closed] = await tx.update(recordReports)
        .set({ status: "closed", closedAt: at, closedBy: staff.accountId })
        .where(and(eq(recordReports.id, input.report_id), eq(recordReports.recordId, row.id), eq(recordReports.status, "open")))
        .returning();
      if (!closed) throw new ApiError("review_conflict", "This report is already closed, or is about another record. Nothing was changed.");
      await writeAudit(tx, {
        staffAccountId: staff.accountId, action: "report.close", subjectKind: "report", subjectId: closed.id, accountId: row.accountId, at,
        before: { status: "open", record: row.id }, after: { status: "closed", outcome: input.operation },
      });
      await mailReportOutcome(tx, closed, input.operation, input.reason);
    }
    const moved = await applyTransition(tx, await storeRecheck(tx, row, rechecked), { next, at, reason: input.reason, by: staffActor(staff.accountId), operation: input.operation });
    await writeAudit(tx, {
      staffAccountId: staff.accountId, action: `record.${input.operation}`, subjectKind: "record", subjectId: row.id, accountId: row.accountId,
      reason: input.reason, at, before: { status: current }, after: { status: next, ...(input.report_id && { report: input.report_id }) },
    });
    await notify(tx, { accountId: row.accountId, kind: NOTICE_OF[input.operation], subjectId: row.id, reason: input.reason, environment: row.environment, at });
    if (staff.accountId) {
      await tx.insert(reviewDecisions).values({
        recordId: row.id, reviewerAccountId: staff.accountId, decision: `staff_${input.operation}`, checklist: [],
        reason: input.reason, notes: input.report_id ? `Answering report ${input.report_id}.` : null, at,
      });
    }
    return moved;
  });
  invalidateStatus(recordId);
  return body;
}

/**
 * Staff never act on their own account's records (issue 38: a reviewer reinstated their own
 * record after the system suspended it): 403 `own_account`, in the console, from reports and at
 * the CLI with `--by`; another staff member can. The operator at the CLI without `--by` acts
 * for no account.
 */
function refuseOwnAccount(staff: Staff, row: { accountId: string }) {
  if (staff.accountId && staff.accountId === row.accountId) {
    throw new ApiError("own_account", "This record belongs to your own account: another staff member must act on it. Nothing was changed.");
  }
}

/** The reviewer or admin account behind `--by` at the CLI, if one was named. */
export async function staffAccount(db: Db, accountId: string): Promise<Staff | null> {
  const [a] = await db.select({ id: accounts.id, role: accounts.role }).from(accounts).where(eq(accounts.id, accountId));
  return a && (a.role === "reviewer" || a.role === "admin") ? { accountId: a.id, role: a.role } : null;
}
