import { and, asc, count, desc, eq, lte, min, ne, sql } from "drizzle-orm";
import { accounts, records, reviewDecisions } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { RECORD_ID_RE } from "@/lib/ids";
import { loadRecentHistories } from "@/lib/record-model/history-page";
import { approvalRefusal, checklistFor, reviewPolicyFor } from "./checklists";
import { approvalInput, recheckableModule } from "./decide-submission";
import { evidenceBasis, firstApproval } from "./four-eyes";
import { assessRisk, submissionValues } from "./risk-signals";

/**
 * The queue is split by environment: live submissions by default, sandbox ones in a tab of
 * their own. A sandbox submission (any made-up claim type a test key sends) never appears in,
 * or counts towards, the live queue's rows, counts or SLA figures.
 */
export const QUEUE_ENVIRONMENTS = ["live", "sandbox"] as const;
export type QueueEnvironment = (typeof QUEUE_ENVIRONMENTS)[number];

export type QueueFilter = { environment?: QueueEnvironment; claimType?: string; olderThanHours?: number; limit?: number };

const pendingIn = (environment: QueueEnvironment) => [eq(records.status, "pending_review"), eq(records.environment, environment)];

/** Pending submissions of one environment (live unless asked), oldest first (the partial index records_pending_idx serves this). */
export async function listQueue(db: Db, f: QueueFilter = {}, now = new Date()) {
  const conds = pendingIn(f.environment ?? "live");
  if (f.claimType) conds.push(eq(records.claimType, f.claimType));
  if (f.olderThanHours) conds.push(lte(records.createdAt, new Date(now.getTime() - f.olderThanHours * 3600_000)));
  const rows = await db
    .select({
      id: records.id, claimType: records.claimType, subject: records.subject, environment: records.environment,
      reason: records.reviewReason, createdAt: records.createdAt, accountId: records.accountId, accountEmail: accounts.email,
      accountCreatedAt: accounts.createdAt, accountSuspendedAt: accounts.suspendedAt,
    })
    .from(records)
    .innerJoin(accounts, eq(accounts.id, records.accountId))
    .where(and(...conds))
    .orderBy(asc(records.createdAt), asc(records.id))
    .limit(Math.min(f.limit ?? 100, 500));
  return rows.map((r) => ({ ...r, sla: slaState(r.createdAt, now) }));
}

/** How many submissions of one environment (live unless asked) wait per claim type, since when, and how many are past the SLA. */
export async function queueCounts(db: Db, environment: QueueEnvironment = "live", now = new Date()) {
  const overdueBefore = new Date(now.getTime() - getEnv().REVIEW_SLA_HOURS * 3600_000);
  return db
    .select({
      claimType: records.claimType, count: count(), oldest: min(records.createdAt),
      overdue: sql<number>`count(*) filter (where ${records.createdAt} < ${overdueBefore.toISOString()}::timestamptz)`.mapWith(Number),
    })
    .from(records)
    .where(and(...pendingIn(environment)))
    .groupBy(records.claimType)
    .orderBy(asc(records.claimType));
}

/** How many submissions wait in each environment's tab. */
export async function queueTotals(db: Db): Promise<Record<QueueEnvironment, number>> {
  const rows = await db.select({ environment: records.environment, count: count() }).from(records)
    .where(eq(records.status, "pending_review")).groupBy(records.environment);
  const of = (e: QueueEnvironment) => rows.find((r) => r.environment === e)?.count ?? 0;
  return { live: of("live"), sandbox: of("sandbox") };
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
    .select({
      id: accounts.id, email: accounts.email, name: accounts.name, plan: accounts.plan, createdAt: accounts.createdAt, emailConfirmedAt: accounts.emailConfirmedAt,
      suspendedAt: accounts.suspendedAt,
    })
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
    // The latest entries and the count, never the whole history (a record may have thousands).
    loadRecentHistories(db, [id]).then((m) => m.get(id)!),
  ]);
  const pending = row.status === "pending_review";
  const policy = reviewPolicyFor(row.claimType);
  const refusal = pending ? approvalRefusal(row, now) : null;
  // What approval would ask again, asked now so the reviewer sees it (approval asks once more).
  const rechecked = pending && !refusal && policy?.atApproval
    ? await policy.atApproval(await approvalInput(db, row), now, { shown: true })
    : null;
  // The risk signals and, for a high-risk one, the first of its two approvals (still valid for this evidence).
  const risk = await assessRisk(db, { accountId: row.accountId, values: submissionValues(row, account!.name), environment: row.environment }, now);
  const first = pending && risk.level === "high" ? await firstApproval(db, "record", row.id, "submission.approve_first") : null;
  return {
    risk, firstApproval: first && first.basis === evidenceBasis(row.evidencePublic) ? first : null,
    row, account: account!, decisions, earlier, history: history.entries, historyCount: history.count, historyBefore: history.olderBefore,
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

