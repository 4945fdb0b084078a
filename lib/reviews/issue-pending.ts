import { and, eq } from "drizzle-orm";
import { nudgeOutbox } from "@/lib/outbox/wake";
import { accounts, events, recordLinks, records } from "@/drizzle/schema";
import type { Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { claimModuleFor, expiryFor, nextRecheckAt, renewsRole } from "@/lib/claims/registry";
import { ApiError } from "@/lib/http/errors";
import { applyTransition } from "@/lib/records/apply-transition";
import { movedByNewRecords } from "@/lib/records/moved-by-new-records";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { entryEvent, recordEntry, writeEntry } from "@/lib/records/record-entry";
import type { EvidenceLevel } from "@/lib/record-model/schemas";
import { loadPublicView } from "@/lib/public/record/public-view";
import { serializeRecord, type RecordRow } from "@/lib/public/record/serialize-record";
import { signIssue } from "@/lib/records/signed-payload";
import { announceIssued } from "@/lib/records/announce-issued";

/**
 * The end of a pending submission's wait: sign it and make it active at `evidenceLevel`, with
 * what every issued record gets (record-entry.ts: history entry, log leaf, lookup values,
 * `record.issued` outbox event) and the cross-process cache notification. `row` must be
 * locked (SELECT … FOR UPDATE) and still pending; the caller checks both.
 */
export async function issuePending(
  tx: Tx,
  row: RecordRow,
  o: {
    at: Date; by: string; reason: string; evidenceLevel: EvidenceLevel; publicEvidence?: Record<string, unknown>;
  },
) {
  const at = o.at;
  const expiresAt = validityEnd(row, at);
  // Always the caller's: a reviewer's approval is evidence_verified, only the service's own re-run is source_verified.
  const evidenceLevel = o.evidenceLevel;
  const evidence = o.publicEvidence ?? row.evidencePublic;
  const [issued] = await tx
    .update(records)
    .set({
      status: "active", evidenceLevel, evidencePublic: evidence, recheckAt: nextRecheckAt(row.claimType, at), statusChangedAt: at, reviewReason: null,
      ...signIssue({
        id: row.id, environment: row.environment, subject: row.subject, claimType: row.claimType, claim: row.claim,
        evidenceLevel, evidence, expiresAt, accountName: await accountNameOf(tx, row.accountId),
      }, at),
    })
    .where(and(eq(records.id, row.id), eq(records.status, "pending_review")))
    .returning();
  if (!issued) throw new Error(`issuePending: ${row.id} is no longer pending (caller must hold the row lock)`);
  const entry = recordEntry(issued, { at, by: o.by, reason: o.reason }); // values from the evidence it is issued with
  await writeEntry(tx, entry);
  await supersedeRenewed(tx, row, at, o.by);
  const body = serializeRecord(await loadPublicView(tx, issued, at.getTime()));
  await tx.insert(events).values(entryEvent(issued, at, body));
  nudgeOutbox();
  await announceIssued(tx, [issued]);
  await notifyStatusChanged(tx, [row.id, ...movedByNewRecords([{ row: issued }])]);
  return body;
}

/** A renewal (its type's `renews` link) supersedes the record it renews, if that is still in force. */
async function supersedeRenewed(tx: Tx, row: RecordRow, at: Date, by: string) {
  const role = renewsRole(row.claimType);
  if (!role) return;
  const [link] = await tx.select().from(recordLinks).where(and(eq(recordLinks.recordId, row.id), eq(recordLinks.role, role)));
  if (!link) return;
  const [old] = await tx.select().from(records).where(and(eq(records.id, link.targetId), eq(records.accountId, row.accountId))).for("update");
  if (!old || (old.status !== "active" && old.status !== "suspended")) return;
  await applyTransition(tx, old, { next: "superseded", at, reason: `Renewed by ${row.id}.`, by, operation: "supersede", supersededBy: row.id });
}

/** The name the account goes by now: a record approved later carries the name of that moment. */
async function accountNameOf(tx: Tx, accountId: string) {
  const [a] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  return a?.name ?? null;
}

/**
 * The validity the customer asked for (expires_at at submission) or the default from the
 * moment of issue. A requested end that has passed while the submission waited cannot be
 * honoured without saying more than was asked: the reviewer must reject instead.
 */
function validityEnd(row: RecordRow, at: Date) {
  const env = getEnv();
  if (!row.requestedExpiresAt) return expiryFor(row.claimType, at);
  if (row.requestedExpiresAt.getTime() <= at.getTime() + env.MIN_VALIDITY_SECONDS * 1000) {
    throw new ApiError(
      "review_validity_passed",
      `The validity requested for this submission ends ${row.requestedExpiresAt.toISOString()}, too soon to issue it; reject it with that reason.`,
    );
  }
  return row.requestedExpiresAt;
}
