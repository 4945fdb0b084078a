import { and, asc, count, desc, eq, lte, min, ne } from "drizzle-orm";
import { accounts, records, reviewDecisions } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { RECORD_ID_RE } from "@/lib/ids";
import { getHistory } from "@/lib/records/get-record";
import { approvalRefusal, checklistFor, reviewPolicyFor } from "./checklists";
import { approvalRecheckInput, recheckableModule } from "./decide-submission";

export type QueueFilter = { claimType?: string; olderThanHours?: number; limit?: number };

/** Pending submissions, oldest first (the partial index records_pending_idx serves this). */
export async function listQueue(db: Db, f: QueueFilter = {}, now = new Date()) {
  const conds = [eq(records.status, "pending_review")];
  if (f.claimType) conds.push(eq(records.claimType, f.claimType));
  if (f.olderThanHours) conds.push(lte(records.createdAt, new Date(now.getTime() - f.olderThanHours * 3600_000)));
  const rows = await db
    .select({
      id: records.id, claimType: records.claimType, subject: records.subject, environment: records.environment,
      reason: records.reviewReason, createdAt: records.createdAt, accountId: records.accountId, accountEmail: accounts.email,
    })
    .from(records)
    .innerJoin(accounts, eq(accounts.id, records.accountId))
    .where(and(...conds))
    .orderBy(asc(records.createdAt), asc(records.id))
    .limit(Math.min(f.limit ?? 100, 500));
  return rows.map((r) => ({ ...r, sla: slaState(r.createdAt, now) }));
}

/** How many submissions wait per claim type, and since when. */
export async function queueCounts(db: Db) {
  return db
    .select({ claimType: records.claimType, count: count(), oldest: min(records.createdAt) })
    .from(records)
    .where(eq(records.status, "pending_review"))
    .groupBy(records.claimType)
    .orderBy(asc(records.claimType));
}

/** Age against the review target (REVIEW_SLA_HOURS): what the queue shows per row. */
export function slaState(createdAt: Date, now = new Date()) {
  const slaMs = getEnv().REVIEW_SLA_HOURS * 3600_000;
  const ageMs = Math.max(0, now.getTime() - createdAt.getTime());
  return { ageMs, slaMs, overdue: ageMs > slaMs, dueAt: new Date(createdAt.getTime() + slaMs) };
}

/** Everything the review page shows: the submission, its customer, its history and earlier decisions on the subject. */
export async function getSubmission(db: Db, id: string, now = new Date()) {
  if (!RECORD_ID_RE.test(id)) return null;
  const [row] = await db.select().from(records).where(eq(records.id, id));
  if (!row) return null;
  const [account] = await db
    .select({ id: accounts.id, email: accounts.email, plan: accounts.plan, createdAt: accounts.createdAt, emailConfirmedAt: accounts.emailConfirmedAt })
    .from(accounts)
    .where(eq(accounts.id, row.accountId));
  const decisionCols = {
    recordId: reviewDecisions.recordId, decision: reviewDecisions.decision, checklist: reviewDecisions.checklist,
    notes: reviewDecisions.notes, reason: reviewDecisions.reason, at: reviewDecisions.at, reviewerEmail: accounts.email,
  };
  const [decisions, earlier, history] = await Promise.all([
    db.select(decisionCols).from(reviewDecisions).innerJoin(accounts, eq(accounts.id, reviewDecisions.reviewerAccountId))
      .where(eq(reviewDecisions.recordId, id)).orderBy(asc(reviewDecisions.seq)),
    // The same subject under the same claim type, any account: what reviewers decided before.
    db.select({ ...decisionCols, recordStatus: records.status, recordAccountId: records.accountId })
      .from(reviewDecisions)
      .innerJoin(records, eq(records.id, reviewDecisions.recordId))
      .innerJoin(accounts, eq(accounts.id, reviewDecisions.reviewerAccountId))
      .where(and(eq(records.subject, row.subject), eq(records.claimType, row.claimType), ne(records.id, id)))
      .orderBy(desc(reviewDecisions.seq))
      .limit(50),
    getHistory(db, id),
  ]);
  const pending = row.status === "pending_review";
  const policy = reviewPolicyFor(row.claimType);
  const refusal = pending ? approvalRefusal(row, now) : null;
  // What approval would ask again, asked now so the reviewer sees it (approval asks once more).
  const rechecked = pending && !refusal && policy?.recheckAtApproval
    ? await policy.recheckAtApproval(await approvalRecheckInput(db, row), now)
    : null;
  return {
    row, account: account!, decisions, earlier, history,
    checklist: checklistFor(row.claimType, row.evidencePublic),
    approvalRefusal: refusal ?? (rechecked?.kind === "refused" ? rechecked.reason : null),
    /** What the service checked again for this page (e.g. the domain record's DNS TXT record); empty when nothing or refused. */
    approvalChecks: rechecked?.kind === "ok" ? rechecked.checked : [],
    snapshotAtApproval: Boolean(policy?.atApproval),
    canRerun: pending && recheckableModule(row.claimType) !== null && (policy?.awaitsSource?.(row.evidencePublic) ?? true),
    /** The re-run only checks a part again (a reviewer still decides), rather than issuing the record when the source confirms it. */
    rerunChecksOnly: Boolean(policy?.awaitsSource),
    sla: slaState(row.createdAt, now),
  };
}

/** The oldest pending submission's id, for "open the oldest". */
export async function oldestPendingId(db: Db) {
  const [r] = await db.select({ id: records.id }).from(records).where(eq(records.status, "pending_review"))
    .orderBy(asc(records.createdAt), asc(records.id)).limit(1);
  return r?.id ?? null;
}

