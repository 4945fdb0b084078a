import { and, inArray, lte, sql } from "drizzle-orm";
import { recordHistory, records } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { writeEvent } from "@/lib/outbox/write-event";
import { getHistory } from "./get-record";
import { notifyStatusChanged } from "./notify-status";
import { serializeRecord } from "./serialize-record";
import { invalidateStatus } from "./status-cache";

/**
 * Persist and announce expiry of records whose expires_at has passed (they already read
 * as expired). Batches are claimed with SKIP LOCKED so several processes can sweep at once.
 */
export async function expireDueRecords(db: Db, batchSize = 200): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(records)
        .where(and(inArray(records.status, ["active", "suspended"]), lte(records.expiresAt, sql`now()`)))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      for (const row of due) {
        const at = row.expiresAt!;
        await tx.update(records).set({ status: "expired", statusChangedAt: at }).where(sql`${records.id} = ${row.id}`);
        await tx.insert(recordHistory).values({ recordId: row.id, status: "expired", at, reason: "Validity period ended.", by: "system:expiry" });
        const body = serializeRecord({ ...row, status: "expired", statusChangedAt: at }, await getHistory(tx, row.id));
        await writeEvent(tx, {
          accountId: row.accountId, environment: row.environment, at: new Date(), type: "record.status_changed",
          data: { record: body, previous_status: row.status, operation: "expire" },
        });
      }
      await notifyStatusChanged(tx, due.map((r) => r.id));
      return due.map((r) => r.id);
    });
    invalidateStatus(ids);
    total += ids.length;
    if (ids.length < batchSize) return total;
  }
}
