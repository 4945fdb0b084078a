import { eq } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import { claimModuleFor, followsParts, monitorOf } from "@/lib/claims/registry";
import type { DbOrTx, Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { metrics } from "@/lib/log/metrics";
import { lapsedParts, partLapsedReason } from "@/lib/record-model/lapsed-parts";

/**
 * A record that stands only with its parts (`part` links) is not reinstated — by its owner or
 * by staff — while one of them is not active: the system would have to suspend it again at
 * once. It is reinstated by the system when the part stands again.
 */
export async function refuseReinstateWhilePartsLapsed(db: DbOrTx, row: { id: string; claimType: string }) {
  if (!followsParts(row.claimType)) return;
  const [lapsed] = await lapsedParts(db, row.id);
  if (lapsed) {
    throw new ApiError("invalid_transition", `${partLapsedReason(lapsed)} The record cannot be reinstated until every part it rests on is active.`, "operation");
  }
}

type Rechecked = { claimType: string; recheckAt: Date | null; evidencePublic: unknown };

/** Whether the record's type is re-checked and its re-check time has come. */
export const recheckDue = (row: Rechecked, now = new Date()) =>
  Boolean(monitorOf(row.claimType) && row.recheckAt && row.recheckAt.getTime() <= now.getTime());

/**
 * A record whose re-check is due, or overdue, is re-checked before it is reinstated — by its
 * owner or by staff — at once, outside any transaction (the check asks outside sources). Its
 * proof may have gone while it was suspended, and a suspended record's re-check is never
 * postponed (lib/records/recheck-records.ts): suspending a record just before its re-check and
 * reinstating it after gets no record past its proof. A failed re-check refuses the
 * reinstatement, 409 `recheck_failed` naming what failed; a source that cannot be reached
 * refuses it too (nothing can say the proof stands). Returns the next re-check time to store
 * with the reinstatement (`storeRecheck`), or null when none was due.
 */
export async function recheckBeforeReinstate(row: Rechecked, now = new Date()): Promise<Date | null> {
  const monitor = monitorOf(row.claimType);
  if (!monitor || !recheckDue(row, now)) return null;
  const found = await monitor.run((row.evidencePublic ?? {}) as Record<string, unknown>, now);
  metrics().rechecks.inc({ outcome: found.kind });
  if (found.kind === "lapsed") {
    throw new ApiError("recheck_failed", `This record's re-check was due, so it was run before reinstating, and it failed: ${found.reason} The record stays suspended.`, "operation");
  }
  if (found.kind === "unreachable") {
    throw new ApiError("recheck_failed", `This record's re-check was due, so it was run before reinstating, and could not be completed: ${found.reason} The record stays suspended; try again later.`, "operation");
  }
  return new Date(Date.now() + monitor.intervalMs());
}

/** Store the re-check time a passed `recheckBeforeReinstate` gave, in the reinstating transaction. */
export async function storeRecheck<R extends { id: string; recheckAt: Date | null }>(tx: Tx, row: R, next: Date | null): Promise<R> {
  if (!next) return row;
  await tx.update(records).set({ recheckAt: next }).where(eq(records.id, row.id));
  return { ...row, recheckAt: next };
}
