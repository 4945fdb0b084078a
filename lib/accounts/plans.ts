import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { usageCounters } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext, Plan } from "./types";

export type Allowance = { live_records: number; reviewed_verifications: number };

/** Monthly allowances (calendar month, UTC). `PLAN_LIMITS` overrides them (JSON, same shape). */
export const DEFAULT_ALLOWANCES: Record<Plan, Allowance> = {
  none: { live_records: 0, reviewed_verifications: 0 },
  starter: { live_records: 1_000, reviewed_verifications: 50 },
  growth: { live_records: 25_000, reviewed_verifications: 500 },
};

const allowanceSchema = z.object({ live_records: z.number().int().min(0), reviewed_verifications: z.number().int().min(0) });

let cached: Record<Plan, Allowance> | undefined;

export function allowances(): Record<Plan, Allowance> {
  return (cached ??= readAllowances());
}

function readAllowances(): Record<Plan, Allowance> {
  const raw = getEnv().PLAN_LIMITS;
  if (!raw) return DEFAULT_ALLOWANCES;
  const parsed = z.partialRecord(z.enum(["none", "starter", "growth"]), allowanceSchema.partial()).parse(JSON.parse(raw));
  const out = { ...DEFAULT_ALLOWANCES };
  for (const [plan, a] of Object.entries(parsed)) out[plan as Plan] = { ...out[plan as Plan], ...a };
  return out;
}

export const usagePeriod = (d: Date) => d.toISOString().slice(0, 7);

/** Live work needs a plan. Sandbox never does and is never counted. */
export function requireActivePlan(auth: Pick<AuthContext, "environment" | "plan">) {
  if (auth.environment === "live" && auth.plan === "none") {
    throw new ApiError("plan_inactive", "This account has no active plan; live records need one. Sandbox keys stay free.");
  }
}

/**
 * Count `units` of live usage (one per live record issued), atomically refusing them all
 * past the allowance. Runs inside the issuing transaction, so a failed issue never consumes
 * allowance.
 */
/** Metering needs the account, the environment and the plan, not who called. */
export type Metered = Pick<AuthContext, "accountId" | "environment" | "plan">;

export async function meterLiveUsage(tx: DbOrTx, auth: Metered, metric: keyof Allowance, at: Date, units = 1) {
  if (auth.environment !== "live") return;
  requireActivePlan(auth);
  const limit = allowances()[auth.plan][metric];
  const counted = await tx
    .insert(usageCounters)
    .values({ accountId: auth.accountId, period: usagePeriod(at), metric, count: units })
    .onConflictDoUpdate({
      target: [usageCounters.accountId, usageCounters.period, usageCounters.metric],
      set: { count: sql`${usageCounters.count} + ${units}` },
      setWhere: sql`${usageCounters.count} + ${units} <= ${limit}`,
    })
    .returning({ count: usageCounters.count });
  // No row: the update was refused. A count past the limit: a first insert that is already too much.
  if (counted.length === 0 || counted[0]!.count > limit) {
    const what = metric.replace("_", " ");
    throw new ApiError(
      "plan_limit_reached",
      units === 1
        ? `The ${auth.plan} plan's allowance of ${limit} ${what} this month is used up.`
        : `The ${auth.plan} plan's allowance of ${limit} ${what} this month does not cover the ${units} this request would issue.`,
    );
  }
}

/**
 * A reviewer decided one of the account's live submissions: one reviewed verification.
 * Counted at decision time and never refused there (the work is done); the allowance is
 * enforced when a live submission asks for review (`requireReviewAllowance`).
 */
export async function countReviewedVerification(tx: DbOrTx, accountId: string, at: Date) {
  await tx
    .insert(usageCounters)
    .values({ accountId, period: usagePeriod(at), metric: "reviewed_verifications", count: 1 })
    .onConflictDoUpdate({
      target: [usageCounters.accountId, usageCounters.period, usageCounters.metric],
      set: { count: sql`${usageCounters.count} + 1` },
    });
}

/** A live submission that needs a reviewer: refused (402) once this month's reviewed verifications are used up. */
export async function requireReviewAllowance(db: DbOrTx, auth: Metered, at: Date) {
  if (auth.environment !== "live") return;
  requireActivePlan(auth);
  const limit = allowances()[auth.plan].reviewed_verifications;
  const [row] = await db
    .select({ count: usageCounters.count })
    .from(usageCounters)
    .where(and(eq(usageCounters.accountId, auth.accountId), eq(usageCounters.period, usagePeriod(at)), eq(usageCounters.metric, "reviewed_verifications")));
  if ((row?.count ?? 0) >= limit) {
    throw new ApiError("plan_limit_reached", `The ${auth.plan} plan's allowance of ${limit} reviewed verifications this month is used up.`);
  }
}
