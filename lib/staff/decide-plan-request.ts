import { and, count, eq } from "drizzle-orm";
import { accounts, planRequests, records } from "@/drizzle/schema";
import { announceAccountChange } from "@/lib/accounts/auth-cache";
import { writePlan } from "@/lib/accounts/manage-account";
import { PlanRequestRefused } from "@/lib/accounts/plan-requests";
import { writeAudit } from "@/lib/audit/staff-audit";
import type { Db } from "@/lib/db/client";
import { notify } from "@/lib/notices/notify";
import { firstApproval, fourEyesStep, type FirstApproval } from "@/lib/reviews/four-eyes";
import { assessRisk, plainValues, type RiskAssessment } from "@/lib/reviews/risk-signals";

export type PlanDecision = { decision: "approve" } | { decision: "decline"; reason: string };

/**
 * An admin decides a pending request: approving sets the account's plan (as setPlan does) in
 * the same transaction; declining records the reason the customer is shown. A request that is
 * no longer pending (decided by another admin meanwhile) is refused and nothing changes. A
 * suspended account's plan is frozen. A high-risk account (its risk signals) goes live only
 * with two admins' approval: the first is recorded (`status` stays pending, the answer says
 * `awaiting_second_approval`), the second — by another admin — decides. The customer is told
 * the decision (event and mail) and the audit trail gets it.
 */
export async function decidePlanRequest(db: Db, adminId: string, requestId: string, d: PlanDecision, now = new Date()) {
  const reason = d.decision === "decline" ? d.reason.trim() : null;
  if (d.decision === "decline" && (!reason || reason.length > 1000)) {
    throw new PlanRequestRefused("Give the customer a reason for declining (at most 1,000 characters).");
  }
  const decided = await db.transaction(async (tx) => {
    const [pending] = await tx.select().from(planRequests)
      .where(and(eq(planRequests.id, requestId), eq(planRequests.status, "pending"))).for("update");
    if (!pending) return null;
    const [acct] = await tx.select({ plan: accounts.plan, name: accounts.name, suspendedAt: accounts.suspendedAt }).from(accounts)
      .where(eq(accounts.id, pending.accountId)).for("update");
    if (d.decision === "approve") {
      if (acct!.suspendedAt) throw new PlanRequestRefused("This account is suspended: its plan is frozen until staff reinstate it.");
      const risk = await assessRisk(tx, { accountId: pending.accountId, values: plainValues(acct!.name ? [{ kind: "name", value: acct!.name, field: "account.name" }] : []) }, now);
      if (risk.level === "high") {
        const basis = `${pending.id} ${pending.plan}`;
        let step: "first" | "second";
        try {
          step = fourEyesStep(await firstApproval(tx, "plan_request", pending.id, "plan_request.approve_first"), adminId, basis);
        } catch (e) {
          throw new PlanRequestRefused(e instanceof Error ? e.message : "A second admin must approve it.");
        }
        if (step === "first") {
          await writeAudit(tx, {
            staffAccountId: adminId, action: "plan_request.approve_first", subjectKind: "plan_request", subjectId: pending.id, accountId: pending.accountId, at: now,
            before: { status: "pending" }, after: { status: "pending", basis, high_risk: risk.signals.filter((r) => r.level === "high").map((r) => r.code) },
          });
          return { row: pending, firstOfTwo: true };
        }
      }
    }
    const [row] = await tx
      .update(planRequests)
      .set({ status: d.decision === "approve" ? "approved" : "declined", decidedBy: adminId, decidedAt: now, reason })
      .where(eq(planRequests.id, pending.id))
      .returning();
    if (row!.status === "approved") await writePlan(tx, row!.accountId, row!.plan);
    await writeAudit(tx, {
      staffAccountId: adminId, action: row!.status === "approved" ? "plan_request.approve" : "plan_request.decline", subjectKind: "plan_request",
      subjectId: row!.id, accountId: row!.accountId, reason, at: now,
      before: { status: "pending", plan: acct!.plan }, after: { status: row!.status, plan: row!.status === "approved" ? row!.plan : acct!.plan },
    });
    // The customer is told (event and mail, sent by the outbox worker once this commits).
    await notify(tx, { accountId: row!.accountId, kind: row!.status === "approved" ? "plan_request.approved" : "plan_request.declined", subjectId: row!.id, reason, at: now });
    return { row: row!, firstOfTwo: false };
  });
  if (!decided) throw new PlanRequestRefused("That request is no longer pending (another admin may have decided it).");
  if (decided.firstOfTwo) return { ...decided.row, awaitingSecondApproval: true };
  if (decided.row.status === "approved") announceAccountChange(); // committed: cached key lookups carry the old plan
  return { ...decided.row, awaitingSecondApproval: false };
}

export type PlanRequestReview = { name: string | null; records: { live: number; sandbox: number }; risk: RiskAssessment; firstApproval: FirstApproval | null };

/**
 * What the admin sees beside each pending plan request (issue 39): the account's name, how many
 * records it has in each environment, its risk signals and, for a high-risk one, the first of
 * its two approvals. The first `limit` requests (oldest first, as listed).
 */
export async function planRequestReviews(db: Db, requests: readonly { id: string; accountId: string }[], now = new Date(), limit = 50) {
  const out = new Map<string, PlanRequestReview>();
  for (const r of requests.slice(0, limit)) {
    const [acct] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, r.accountId));
    const counts = await db.select({ environment: records.environment, n: count() }).from(records)
      .where(eq(records.accountId, r.accountId)).groupBy(records.environment);
    const risk = await assessRisk(db, { accountId: r.accountId, values: plainValues(acct?.name ? [{ kind: "name", value: acct.name, field: "account.name" }] : []) }, now);
    out.set(r.id, {
      name: acct?.name ?? null,
      records: { live: counts.find((c) => c.environment === "live")?.n ?? 0, sandbox: counts.find((c) => c.environment === "sandbox")?.n ?? 0 },
      risk,
      firstApproval: risk.level === "high" ? await firstApproval(db, "plan_request", r.id, "plan_request.approve_first") : null,
    });
  }
  return out;
}
