import { and, eq } from "drizzle-orm";
import { usageCounters } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { allowances, usagePeriod } from "./plans";
import type { AuthContext } from "./types";

/**
 * This month's live usage against the plan. Sandbox work and status reads never appear here.
 * Only the account and its plan matter, so the portal passes its session's account (no key).
 */
export async function getUsage(db: Db, auth: Pick<AuthContext, "accountId" | "plan">, now = new Date()) {
  const period = usagePeriod(now);
  const rows = await db
    .select()
    .from(usageCounters)
    .where(and(eq(usageCounters.accountId, auth.accountId), eq(usageCounters.period, period)));
  const used = (m: string) => rows.find((r) => r.metric === m)?.count ?? 0;
  const allowance = allowances()[auth.plan];
  return {
    object: "usage" as const,
    period,
    plan: auth.plan,
    live_records: { used: used("live_records"), allowance: allowance.live_records },
    reviewed_verifications: { used: used("reviewed_verifications"), allowance: allowance.reviewed_verifications },
  };
}
