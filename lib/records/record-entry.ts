import { recordHistory, type records } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { recordValuesOf, replaceRecordValues, type RecordValueRow } from "@/lib/record-model/record-values";
import { buildEvent } from "@/lib/outbox/write-event";
import { appendLeaves, recordLeaf, type LogLeaf } from "@/lib/tlog/store";

type Row = typeof records.$inferSelect;

/**
 * What a record's entry into `active` (issued) or `pending_review` (submitted) writes besides
 * its row — the history entry, the values a lookup finds it by, for an issued live record its
 * transparency-log leaf — and (`entryEvent`) the outbox event carrying the answer. The one
 * definition of "a record becomes issued": a new record writes it in one statement with its
 * row (insert-record-bundle.ts: create and batch), an approved submission with `writeEntry`
 * (issue-pending.ts). The cache keys it moves are movedByNewRecords'.
 */
export type RecordEntry = {
  history: { recordId: string; status: Row["status"]; at: Date; reason: string; by: string };
  values: RecordValueRow[];
  leaf: LogLeaf | null;
};

export function recordEntry(row: Row, o: { at: Date; by: string; reason: string }): RecordEntry {
  return {
    history: { recordId: row.id, status: row.status, at: o.at, reason: o.reason, by: o.by },
    values: recordValuesOf(row),
    leaf: row.status === "active" ? recordLeaf(row, "issued", "active", o.at) : null,
  };
}

/** The outbox event of the entry: `record.issued` or `record.pending_review` with the answer (`bodyJson`: already serialised). */
export function entryEvent(row: Row, at: Date, body: Record<string, unknown>, bodyJson?: string) {
  return buildEvent({
    accountId: row.accountId, environment: row.environment, at, type: row.status === "active" ? "record.issued" : "record.pending_review",
    data: { record: body }, recordJson: bodyJson,
  });
}

/** The entry of a record whose row already exists (a submission just issued), in the caller's transaction; its lookup values replace those it had. */
export async function writeEntry(tx: DbOrTx, entry: RecordEntry): Promise<void> {
  await tx.insert(recordHistory).values(entry.history);
  await appendLeaves(tx, [entry.leaf]);
  await replaceRecordValues(tx, entry.history.recordId, entry.values);
}
