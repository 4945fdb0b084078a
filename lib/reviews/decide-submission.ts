import { keepFilesAfterDecision } from "@/lib/files/purge-files";
import { lapsedParts, partLapsedReason } from "@/lib/record-model/lapsed-parts";
import { submissionDocuments } from "@/lib/records/check-claim";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, records, reviewDecisions } from "@/drizzle/schema";
import { countReviewedVerification, meterLiveUsage } from "@/lib/accounts/plans";
import type { Role } from "@/lib/accounts/types";
import { claimModuleFor, followsParts } from "@/lib/claims/registry";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { RECORD_ID_RE } from "@/lib/ids";
import { loadPublicView } from "@/lib/public/record/public-view";
import { loadStoredLinkTargets } from "@/lib/record-model/link-targets";
import { canonicalJson } from "@/lib/signing/canonical";
import type { EvidenceLevel } from "@/lib/record-model/schemas";
import { serializeRecord, type RecordRow } from "@/lib/public/record/serialize-record";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import { reject } from "@/lib/records/reject-submission";
import { writeAudit } from "@/lib/audit/staff-audit";
import { notify } from "@/lib/notices/notify";
import { checklistFor, checklistIncompleteMessage, reviewPolicyFor } from "./checklists";
import { evidenceBasis, firstApproval, fourEyesStep } from "./four-eyes";
import { assessRisk, submissionValues, type RiskSignal } from "./risk-signals";
import { issuePending } from "./issue-pending";

export type Reviewer = { id: string; role: Role };

/** The level a reviewer's approval issues at: the reviewer confirmed it, the service did not check it itself. */
export const REVIEWED_LEVEL: EvidenceLevel = "evidence_verified";

export const decisionSchema = z.strictObject({
  decision: z.enum(["approve", "reject"]),
  checklist: z.array(z.string().min(1).max(64)).max(32).default([]),
  notes: z.string().trim().max(2000).optional(),
  /** Shown to the customer; required to reject. */
  reason: z.string().trim().min(3).max(500).optional(),
  /** Approve even though the source asked at approval (e.g. the exchange's info API) cannot answer: issue without its snapshot. */
  without_snapshot: z.boolean().default(false),
});
export type DecisionInput = z.input<typeof decisionSchema>;

export function requireReviewer(r: Reviewer) {
  if (r.role !== "reviewer" && r.role !== "admin") {
    throw new ApiError("forbidden", "Only reviewers and admins can decide submissions.");
  }
}

const notFound = (id: string) => new ApiError("submission_not_found", `No submission ${id.slice(0, 40)}.`, "id");

/** Lock the submission; it must exist and still be pending, or the caller learns who got there first. */
async function lockPending(tx: Tx, id: string): Promise<RecordRow> {
  if (!RECORD_ID_RE.test(id)) throw notFound(id);
  const [row] = await tx.select().from(records).where(eq(records.id, id)).for("update");
  if (!row) throw notFound(id);
  if (row.status !== "pending_review") throw await alreadyDecided(tx, row);
  return row;
}

/** The 409 for a submission that is no longer pending, naming the decision that won. */
async function alreadyDecided(db: DbOrTx, row: RecordRow) {
  const [last] = await db
    .select({ decision: reviewDecisions.decision, at: reviewDecisions.at, email: accounts.email })
    .from(reviewDecisions)
    .innerJoin(accounts, eq(accounts.id, reviewDecisions.reviewerAccountId))
    .where(eq(reviewDecisions.recordId, row.id))
    .orderBy(desc(reviewDecisions.seq))
    .limit(1);
  const by = last ? ` (${last.decision} by ${last.email} at ${last.at.toISOString()})` : "";
  return new ApiError("review_conflict", `This submission was already decided: it is ${row.status} now${by}. Nothing was changed.`);
}

/**
 * A reviewer's approve or reject. Exactly one decision wins: the row is locked and must
 * still be pending. Approve issues the record at `evidence_verified` whatever its type — also
 * a connector type whose source could not be reached (CONTRACT "What was checked"): only a
 * check the service ran itself (rerunAutomaticCheck) gives `source_verified`. Reject is terminal. Either way the audit log
 * gets a row and a live submission counts as one reviewed verification.
 */
export async function decideSubmission(db: Db, reviewer: Reviewer, recordId: string, raw: unknown) {
  requireReviewer(reviewer);
  const input = parseOrThrow(decisionSchema, raw);
  if (input.decision === "reject" && !input.reason) {
    throw new ApiError("missing_field", "A rejection needs a reason; the customer sees it.", "reason");
  }
  const approval = input.decision === "approve" ? await prepareApproval(db, recordId, input.without_snapshot) : undefined;
  let secondApproval = false;
  const record = await db.transaction(async (tx) => {
    const row = await lockPending(tx, recordId);
    if (row.accountId === reviewer.id) {
      throw new ApiError("own_submission", "Reviewers cannot decide their own account's submissions; another reviewer must.");
    }
    const checklist = checklistFor(row.claimType, row.evidencePublic);
    const items = checklist.map((i) => i.key);
    const unknown = input.checklist.find((k) => !items.includes(k));
    if (unknown) throw new ApiError("invalid_value", `'${unknown.slice(0, 64)}' is not on the ${row.claimType} checklist.`, "checklist");
    const ticked = items.filter((k) => input.checklist.includes(k));
    if (input.decision === "approve" && ticked.length !== items.length) {
      throw new ApiError("checklist_incomplete", checklistIncompleteMessage(checklist.filter((i) => !ticked.includes(i.key))), "checklist");
    }
    const at = new Date();
    if (input.decision === "approve") {
      const refused = reviewPolicyFor(row.claimType)?.beforeApprove?.({ createdAt: row.createdAt, evidence: row.evidencePublic }, at);
      if (refused) throw new ApiError("review_precondition_failed", `${refused} Nothing was changed.`);
      // A record that stands only with its parts (a listing) is not issued resting on a part that lapsed while it waited.
      if (followsParts(row.claimType)) {
        const [lapsed] = await lapsedParts(tx, row.id, at.getTime());
        if (lapsed) throw new ApiError("review_precondition_failed", `${partLapsedReason(lapsed)} It cannot be approved resting on it. Nothing was changed.`);
      }
      // What was asked at approval was asked about this evidence: a refresh meanwhile is looked at again.
      if (approval && canonicalJson(approval.basis) !== canonicalJson(row.evidencePublic)) {
        throw new ApiError("review_precondition_failed", "The submission's evidence was refreshed while it was being approved: look at it again. Nothing was changed.");
      }
      const [owner] = await tx.select({ name: accounts.name, suspendedAt: accounts.suspendedAt }).from(accounts).where(eq(accounts.id, row.accountId));
      if (owner?.suspendedAt) {
        throw new ApiError("review_precondition_failed", "The submitting account is suspended by staff: its submissions cannot be approved. Nothing was changed.");
      }
      // Four eyes: a high-risk live submission is approved by two different reviewers (lib/reviews/four-eyes.ts).
      if (row.environment === "live") {
        const risk = await assessRisk(tx, { accountId: row.accountId, values: submissionValues(row, owner?.name ?? null), environment: "live" }, at);
        if (risk.level === "high") {
          const basis = evidenceBasis(row.evidencePublic);
          const step = fourEyesStep(await firstApproval(tx, "record", row.id, "submission.approve_first"), reviewer.id, basis);
          if (step === "first") return approveFirst(tx, row, reviewer, { ticked, notes: input.notes || null, basis, risk: risk.signals, at });
          secondApproval = true;
        }
      }
    }
    const by = `reviewer:${reviewer.id}`;
    const body = input.decision === "approve"
      ? await issuePending(tx, row, {
        at, by, reason: approval?.note ?? "Confirmed by a reviewer.", evidenceLevel: REVIEWED_LEVEL, ...(approval && { publicEvidence: approval.evidence }),
      })
      : await reject(tx, row, { at, by, reason: input.reason! });
    // The documents the submission came with are kept 90 days from the decision, then deleted.
    await keepFilesAfterDecision(tx, row.accountId, submissionDocuments(row.evidencePrivate).map((d) => d.id), row.id, at);
    await tx.insert(reviewDecisions).values({
      recordId: row.id, reviewerAccountId: reviewer.id, decision: input.decision, checklist: ticked,
      notes: input.notes || null, reason: input.decision === "reject" ? input.reason! : null, at,
    });
    const approved = input.decision === "approve";
    await writeAudit(tx, {
      staffAccountId: reviewer.id, action: approved ? "submission.approve" : "submission.reject", subjectKind: "record", subjectId: row.id,
      accountId: row.accountId, reason: approved ? null : input.reason!, at,
      before: { status: "pending_review" }, after: { status: body.status, ...(secondApproval && { second_approval: true }) },
    });
    await notify(tx, {
      accountId: row.accountId, kind: approved ? "submission.approved" : "submission.rejected", subjectId: row.id,
      reason: approved ? null : input.reason!, environment: row.environment, at,
    });
    if (row.environment === "live") await countReviewedVerification(tx, row.accountId, at);
    return body;
  });
  invalidateStatus(recordId);
  return record;
}

/**
 * What the claim type asks at the moment of approval, before the row is locked (sources are
 * never asked inside the transaction): first its precondition (`beforeApprove`, so nothing is
 * asked for a submission that cannot be approved), then `review.atApproval` — what it re-checks
 * (e.g. a linked domain record's DNS TXT record: refused → 409
 * `review_precondition_failed` with the reason), then what it takes from a source
 * (e.g. a snapshot: a source that cannot answer refuses the approval —
 * 409 `snapshot_unreachable` — unless the reviewer chose to approve without it). Answers the
 * evidence to issue with and the evidence it was asked about (`basis`).
 */
async function prepareApproval(db: Db, recordId: string, withoutSnapshot: boolean) {
  if (!RECORD_ID_RE.test(recordId)) return undefined;
  const [row] = await db.select().from(records).where(eq(records.id, recordId));
  if (!row || row.status !== "pending_review") return undefined; // the transaction says why
  const policy = reviewPolicyFor(row.claimType);
  if (!policy?.atApproval) return undefined;
  const now = new Date();
  const refused = policy.beforeApprove?.({ createdAt: row.createdAt, evidence: row.evidencePublic }, now);
  if (refused) throw new ApiError("review_precondition_failed", `${refused} Nothing was changed.`);
  const basis = row.evidencePublic;
  const asked = await policy.atApproval(await approvalInput(db, row), now, { shown: false });
  if (asked.kind === "refused") throw new ApiError("review_precondition_failed", `${asked.reason} Nothing was changed.`);
  if (asked.kind === "ok") return { evidence: asked.evidence, note: undefined, basis };
  if (!withoutSnapshot) {
    throw new ApiError("snapshot_unreachable", `${asked.reason} Approve without a snapshot to issue it anyway; nothing was changed.`, "without_snapshot");
  }
  return { evidence: asked.evidenceWithout, note: `Confirmed by a reviewer; issued without a snapshot (${asked.reason})`, basis };
}

/** A submission with the records it rests on (its record_links, this account's only), for `review.atApproval`. */
export async function approvalInput(db: DbOrTx, row: RecordRow) {
  return {
    subject: row.subject, evidence: row.evidencePublic, privateEvidence: row.evidencePrivate ?? {}, environment: row.environment,
    linked: await loadStoredLinkTargets(db, row.id, row.accountId),
  };
}

/**
 * The first of two approvals of a high-risk submission: the decision and the audit row (with the
 * evidence hash it approved and the high signals), the reason the queue shows; nothing issued.
 * Returns the submission as it stands (still `pending_review`).
 */
async function approveFirst(
  tx: Tx, row: RecordRow, reviewer: Reviewer, o: { ticked: string[]; notes: string | null; basis: string; risk: readonly RiskSignal[]; at: Date },
) {
  const reviewReason = "Approved by one reviewer. High risk: a second reviewer must approve it too.";
  await tx.insert(reviewDecisions).values({ recordId: row.id, reviewerAccountId: reviewer.id, decision: "approve_first", checklist: o.ticked, notes: o.notes, at: o.at });
  await writeAudit(tx, {
    staffAccountId: reviewer.id, action: "submission.approve_first", subjectKind: "record", subjectId: row.id, accountId: row.accountId, at: o.at,
    before: { status: "pending_review" },
    after: { status: "pending_review", basis: o.basis, high_risk: o.risk.filter((r) => r.level === "high").map((r) => r.code) },
  });
  const [updated] = await tx.update(records).set({ reviewReason }).where(eq(records.id, row.id)).returning();
  return serializeRecord(await loadPublicView(tx, updated!, o.at.getTime()));
}


export type RerunResult =
  | { outcome: "issued"; record: ReturnType<typeof serializeRecord> }
  | { outcome: "checked" | "unreachable" | "failed"; reason: string };

/**
 * "Re-run automatic check" for a submission that waits because its source could not be
 * reached: ask the source again. If it now confirms, the record issues without a human
 * (at the connector's level, counted as a live record, not as a reviewed verification); if
 * it is still unreachable or now disagrees, the submission stays pending with that reason.
 * The source is asked outside the transaction; the row is locked only to write the result.
 */
export async function rerunAutomaticCheck(db: Db, reviewer: Reviewer, recordId: string): Promise<RerunResult> {
  requireReviewer(reviewer);
  if (!RECORD_ID_RE.test(recordId)) throw notFound(recordId);
  const [first] = await db.select().from(records).where(eq(records.id, recordId));
  if (!first) throw notFound(recordId);
  if (first.status !== "pending_review") throw await alreadyDecided(db, first);
  const mod = recheckableModule(first.claimType);
  if (!mod?.checking?.recheck) {
    throw new ApiError("recheck_not_available", `claim_type '${first.claimType}' has no connector: only a reviewer can decide it.`);
  }
  const now = new Date();
  const found = await mod.checking.recheck(first.evidencePublic, now, { subject: first.subject, accountId: first.accountId }, db);
  const result = await db.transaction(async (tx): Promise<RerunResult> => {
    const row = await lockPending(tx, recordId);
    const by = `system:rerun:${reviewer.id}`;
    if (found.kind === "issue") {
      if (row.environment === "live") {
        const [acct] = await tx.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, row.accountId));
        await meterLiveUsage(tx, { accountId: row.accountId, environment: "live", plan: acct!.plan }, "live_records", now);
      }
      const record = await issuePending(tx, row, {
        at: now, by, reason: "Automatic check re-run: the source answered and confirmed it.",
        evidenceLevel: found.evidenceLevel, publicEvidence: found.publicEvidence,
      });
      await audit(tx, row, reviewer.id, "rerun_issued", null, now);
      return { outcome: "issued", record };
    }
    if (found.kind === "checked") {
      const reason = `Re-run ${now.toISOString()}: ${found.reason}`;
      await tx.update(records).set({ evidencePublic: found.publicEvidence, reviewReason: reason })
        .where(and(eq(records.id, row.id), eq(records.status, "pending_review")));
      await audit(tx, row, reviewer.id, "rerun_checked", reason, now);
      return { outcome: "checked", reason };
    }
    const reason = found.kind === "unreachable"
      ? `Re-run ${now.toISOString()}: the source is still unreachable. ${found.reason}`
      : `Re-run ${now.toISOString()}: the source answered and did not confirm it. ${found.reason}`;
    await tx.update(records).set({ reviewReason: reason }).where(and(eq(records.id, row.id), eq(records.status, "pending_review")));
    await audit(tx, row, reviewer.id, found.kind === "unreachable" ? "rerun_unchanged" : "rerun_failed", reason, now);
    return { outcome: found.kind === "unreachable" ? "unreachable" : "failed", reason };
  });
  if (result.outcome !== "unreachable" && result.outcome !== "failed") invalidateStatus(recordId);
  return result;
}

async function audit(tx: Tx, row: RecordRow, reviewerId: string, decision: "rerun_issued" | "rerun_checked" | "rerun_unchanged" | "rerun_failed", notes: string | null, at: Date) {
  await tx.insert(reviewDecisions).values({ recordId: row.id, reviewerAccountId: reviewerId, decision, checklist: [], notes, at });
  await writeAudit(tx, {
    staffAccountId: reviewerId, action: "submission.rerun", subjectKind: "record", subjectId: row.id, accountId: row.accountId, reason: notes, at,
    before: { status: "pending_review" }, after: { status: decision === "rerun_issued" ? "active" : "pending_review", outcome: decision },
  });
  if (decision === "rerun_issued") await notify(tx, { accountId: row.accountId, kind: "submission.approved", subjectId: row.id, reason: null, environment: row.environment, at });
}

/** The module whose connector can check this claim type again, if any. */
export function recheckableModule(claimType: string) {
  const mod = claimModuleFor(claimType);
  return mod.checking?.recheck ? mod : null;
}
