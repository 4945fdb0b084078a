import { eq } from "drizzle-orm";
import { recordHistory, recordLinks, records, type RecordStatus } from "@/drizzle/schema";
import type { Tx } from "@/lib/db/client";
import { accountDependency } from "@/lib/accounts/account-profile";
import { claimModuleFor } from "@/lib/claims/registry";
import { writeEvent } from "@/lib/outbox/write-event";
import { appendLeaves, recordLeaf } from "@/lib/tlog/store";
import { notifyStatusChanged } from "./notify-status";
import { isIssued } from "./effective-status";
import { loadPublicView } from "./public-view";
import { serializeRecord, type RecordRow } from "./serialize-record";

/**
 * Move a locked record to `next` inside `tx`: the row, an immutable history entry, its
 * transparency-log entry (live records), the `record.status_changed` outbox event and the cross-process cache notification. Callers
 * check the move is allowed and drop their local status cache after commit.
 */
export async function applyTransition(
  tx: Tx,
  row: RecordRow,
  t: { next: RecordStatus; at: Date; reason: string; by: string; operation: string; supersededBy?: string },
) {
  const supersededBy = t.supersededBy ?? row.supersededBy;
  await tx.update(records).set({ status: t.next, statusChangedAt: t.at, supersededBy }).where(eq(records.id, row.id));
  await tx.insert(recordHistory).values({ recordId: row.id, status: t.next, at: t.at, reason: t.reason, by: t.by });
  await appendLeaves(tx, [recordLeaf(row, "status_changed", t.next, t.at)]);
  const body = serializeRecord(await loadPublicView(tx, { ...row, status: t.next, statusChangedAt: t.at, supersededBy }));
  await writeEvent(tx, {
    accountId: row.accountId, environment: row.environment, at: new Date(), type: "record.status_changed",
    data: { record: body, previous_status: row.status, operation: t.operation },
  });
  // A record that proves an account domain changes what every record of that account shows
  // (its verified domains): their cached statuses go too, in every process once this commits.
  const alsoAccount = claimModuleFor(row.claimType).provesAccountDomain ? [accountDependency(row.accountId)] : [];
  const announced = await announceToDependents(tx, row.id, t.at);
  await notifyStatusChanged(tx, [row.id, ...alsoAccount, ...announced]);
  return body;
}

/**
 * Records that rest on this one and whose type announces part changes (a listing's domain,
 * payee or licence) get a `record.status_changed` event of their own, their status unchanged,
 * with the part's new standing in their record object. Returns their ids.
 */
async function announceToDependents(tx: Tx, targetId: string, at: Date): Promise<string[]> {
  const deps = await tx
    .select({ record: records })
    .from(recordLinks)
    .innerJoin(records, eq(records.id, recordLinks.recordId))
    .where(eq(recordLinks.targetId, targetId));
  const announcing = deps.map((d) => d.record).filter((r) => isIssued(r.status) && claimModuleFor(r.claimType).announcePartChanges);
  for (const dep of announcing) {
    const body = serializeRecord(await loadPublicView(tx, dep, at.getTime()));
    await writeEvent(tx, {
      accountId: dep.accountId, environment: dep.environment, at: new Date(), type: "record.status_changed",
      data: { record: body, previous_status: body.status, operation: "part_changed", part: targetId },
    });
  }
  return announcing.map((r) => r.id);
}
