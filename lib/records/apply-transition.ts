import { and, asc, eq, inArray } from "drizzle-orm";
import { recordHistory, recordLinks, records, type RecordStatus } from "@/drizzle/schema";
import type { Tx } from "@/lib/db/client";
import { accountDependency } from "@/lib/accounts/account-profile";
import { claimModuleFor, followsParts, provesAccountDomain } from "@/lib/claims/registry";
import { writeEvent } from "@/lib/outbox/write-event";
import { appendLeaves, recordLeaf } from "@/lib/tlog/store";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { effectiveStatus, isIssued } from "@/lib/record-model/effective-status";
import { loadPublicView } from "@/lib/public/record/public-view";
import { serializeRecord, type RecordRow } from "@/lib/public/record/serialize-record";
import { lapsedParts, partLapsedReason, type LapsedPart } from "@/lib/record-model/lapsed-parts";
import { lastMover, PART_ACTOR } from "@/lib/record-model/standing-actor";

export type Transition = {
  next: RecordStatus; at: Date; reason: string; by: string; operation: string; supersededBy?: string;
  /** The part whose change moved this record (a dependent moved by the system): named in its event as `part`. */
  part?: string;
};

/**
 * Move a locked record to `next` inside `tx`: the row, an immutable history entry, its
 * transparency-log entry (live records), the `record.status_changed` outbox event and the
 * cross-process cache notification. The records that rest on it follow in the same
 * transaction (`followParts`), so no reader sees a part lapsed under a standing dependent.
 * Callers check the move is allowed and drop their local status cache after commit (dropping
 * a record's cached status drops its dependents' too).
 */
export async function applyTransition(tx: Tx, row: RecordRow, t: Transition) {
  return moveRecord(tx, row, t, true);
}

async function moveRecord(tx: Tx, row: RecordRow, t: Transition, follow: boolean) {
  const supersededBy = t.supersededBy ?? row.supersededBy;
  await tx.update(records).set({ status: t.next, statusChangedAt: t.at, supersededBy }).where(eq(records.id, row.id));
  await tx.insert(recordHistory).values({ recordId: row.id, status: t.next, at: t.at, reason: t.reason, by: t.by });
  await appendLeaves(tx, [recordLeaf(row, "status_changed", t.next, t.at)]);
  const body = serializeRecord(await loadPublicView(tx, { ...row, status: t.next, statusChangedAt: t.at, supersededBy }));
  await writeEvent(tx, {
    accountId: row.accountId, environment: row.environment, at: new Date(), type: "record.status_changed",
    data: { record: body, previous_status: row.status, operation: t.operation, ...(t.part ? { part: t.part } : {}) },
  });
  // A record that proves an account domain changes what every record of that account shows
  // (its verified domains): their cached statuses go too, in every process once this commits.
  const alsoAccount = provesAccountDomain(row.claimType) ? [accountDependency(row.accountId)] : [];
  // One level only: a dependent moved by its part does not move (or announce to) its own dependents.
  const followers = follow ? await followParts(tx, row.id, t.at) : [];
  await notifyStatusChanged(tx, [row.id, ...alsoAccount, ...followers]);
  return body;
}

/**
 * The records that rest on `partId` (record_links), after its status changed in `tx`:
 * - a type with `part` links (a listing) is suspended by `system:part` when a part is no
 *   longer active, the part named in the reason; and reinstated by `system:part` when every
 *   part is active again — only a suspension `system:part` made itself, never the owner's or
 *   staff's;
 * - when its status does not move, it gets a `record.status_changed` of its own (operation
 *   `part_changed`), its status unchanged.
 * The dependents are locked (in id order) before they are read. Returns their ids.
 */
async function followParts(tx: Tx, partId: string, at: Date): Promise<string[]> {
  const ids = (await tx.select({ id: recordLinks.recordId }).from(recordLinks).where(eq(recordLinks.targetId, partId))).map((d) => d.id);
  if (ids.length === 0) return [];
  const deps = await tx.select().from(records).where(and(inArray(records.id, ids), inArray(records.status, ["active", "suspended"])))
    .orderBy(asc(records.id)).for("update");
  const touched: string[] = [];
  for (const dep of deps) {
    const mod = claimModuleFor(dep.claimType);
    if (!followsParts(mod)) continue;
    touched.push(dep.id);
    const moved = await followPartsOf(tx, dep, partId, at);
    if (moved) continue;
    const body = serializeRecord(await loadPublicView(tx, dep, at.getTime()));
    await writeEvent(tx, {
      accountId: dep.accountId, environment: dep.environment, at: new Date(), type: "record.status_changed",
      data: { record: body, previous_status: body.status, operation: "part_changed", part: partId },
    });
  }
  return touched;
}

/** Suspend or reinstate one dependent as its parts stand now; false when it stays as it is. */
async function followPartsOf(tx: Tx, dep: RecordRow, partId: string, at: Date): Promise<boolean> {
  const now = Date.now();
  const current = effectiveStatus(dep, now).status; // one past its expires_at is expired: left to the sweep
  if (!isIssued(current) || (current !== "active" && current !== "suspended")) return false;
  const lapsed = await lapsedParts(tx, dep.id, now);
  if (current === "active" && lapsed.length > 0) {
    const part: LapsedPart = lapsed.find((p) => p.id === partId) ?? lapsed[0]!;
    await moveRecord(tx, dep, { next: "suspended", at, by: PART_ACTOR, operation: "suspend", reason: partLapsedReason(part), part: part.id }, false);
    return true;
  }
  if (current === "suspended" && lapsed.length === 0 && (await lastMover(tx, dep.id)) === PART_ACTOR) {
    await moveRecord(tx, dep, { next: "active", at, by: PART_ACTOR, operation: "reinstate", reason: "Every part it rests on is active again.", part: partId }, false);
    return true;
  }
  return false;
}
