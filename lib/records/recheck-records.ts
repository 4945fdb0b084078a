import { and, eq, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import { monitoredClaimTypes, monitorOf } from "@/lib/claims/registry";
import type { ClaimModule } from "@/lib/claims/types";
import type { Db } from "@/lib/db/client";
import { applyTransition } from "./apply-transition";
import { lastMover, RECHECK_ACTOR } from "@/lib/record-model/standing-actor";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import { metrics } from "@/lib/log/metrics";

export { RECHECK_ACTOR };

/**
 * The one scheduler for every claim type with a periodic `policy.recheck` (lib/claims/types.ts): active
 * records that are due are asked again — a lapse suspends them with the reason; suspended
 * records a re-check suspended are asked too, and a pass reinstates them. A suspension by the
 * owner, staff or a lapsed part is neither lifted nor asked, and its re-check is not
 * postponed: it stays due, and reinstating the record runs it first (reinstate-rules.ts), so
 * suspending a record around its re-check gets it past nothing. An unreachable source changes
 * nothing but the next time.
 * Sources are asked outside any lock; the row is then locked and must be unchanged.
 *
 * Live records first, up to `budget.live` a round; sandbox records after them on a budget
 * of their own (`budget.sandbox`, smaller): however many sandbox records are due — a free
 * account can make thousands — they never take a live record's turn or its source calls.
 */
export async function recheckRecords(
  db: Db, budget: { live: number; sandbox: number } = { live: 50, sandbox: 10 },
): Promise<{ checked: number; suspended: number; reinstated: number }> {
  const live = await recheckEnvironment(db, "live", budget.live);
  const sandbox = await recheckEnvironment(db, "sandbox", budget.sandbox);
  return { checked: live.checked + sandbox.checked, suspended: live.suspended + sandbox.suspended, reinstated: live.reinstated + sandbox.reinstated };
}

/**
 * Records of `types` whose re-check is due at `now`: active ones, and those a re-check
 * suspended. One its owner, staff or a lapsed part suspended is not the re-check's to lift, and
 * its re-check is never postponed: it stays due, and a reinstatement runs it first
 * (lib/records/reinstate-rules.ts). Undefined when there is no monitored type.
 */
export function recheckDue(types: Iterable<string> = monitoredClaimTypes().map((m) => m.type), now = new Date()) {
  const list = [...types];
  if (list.length === 0) return undefined;
  return and(
    isNotNull(records.recheckAt), lte(records.recheckAt, now), inArray(records.claimType, list),
    or(eq(records.status, "active"), and(eq(records.status, "suspended"), sql`(
      select h.by from record_history h where h.record_id = ${records.id} order by h.seq desc limit 1
    ) = ${RECHECK_ACTOR}`)),
  );
}

async function recheckEnvironment(db: Db, environment: "live" | "sandbox", limit: number) {
  const byType = new Map<string, ClaimModule>(monitoredClaimTypes().map((m) => [m.type, m]));
  if (byType.size === 0 || limit <= 0) return { checked: 0, suspended: 0, reinstated: 0 };
  const now = new Date();
  const due = await db
    .select({ id: records.id, claimType: records.claimType, status: records.status, evidence: records.evidencePublic, recheckAt: records.recheckAt })
    .from(records)
    .where(and(eq(records.environment, environment), recheckDue(byType.keys(), now)))
    .orderBy(records.recheckAt)
    .limit(limit);
  let suspended = 0;
  let reinstated = 0;
  for (const d of due) {
    const mod = byType.get(d.claimType)!;
    const found = await monitorOf(mod)!.run(d.evidence, now);
    metrics().rechecks.inc({ outcome: found.kind });
    const changed = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(records).where(eq(records.id, d.id)).for("update");
      // Someone else moved or re-checked it meanwhile.
      if (!row || row.status !== d.status || row.recheckAt?.getTime() !== d.recheckAt?.getTime()) return null;
      // Suspended meanwhile by its owner, staff or a part: not ours, and its re-check stays due.
      if (row.status === "suspended" && (await lastMover(tx, row.id)) !== RECHECK_ACTOR) return null;
      const at = new Date();
      const recheckAt = new Date(at.getTime() + monitorOf(mod)!.intervalMs());
      await tx.update(records).set({ recheckAt }).where(eq(records.id, row.id));
      if (row.status === "active" && found.kind === "lapsed") {
        await applyTransition(tx, { ...row, recheckAt }, { next: "suspended", at, by: RECHECK_ACTOR, operation: "suspend", reason: found.reason });
        return "suspended" as const;
      }
      if (row.status === "suspended" && found.kind === "holds") {
        await applyTransition(tx, { ...row, recheckAt }, {
          next: "active", at, by: RECHECK_ACTOR, operation: "reinstate", reason: "A re-check found the evidence in place again.",
        });
        return "reinstated" as const;
      }
      return null;
    });
    if (changed) invalidateStatus(d.id);
    if (changed === "suspended") suspended++;
    if (changed === "reinstated") reinstated++;
  }
  return { checked: due.length, suspended, reinstated };
}
