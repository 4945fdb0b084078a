import { and, inArray, lte, sql } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { applyTransition } from "./apply-transition";
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
        await applyTransition(tx, row, {
          next: "expired", at: row.expiresAt!, reason: "Validity period ended.", by: "system:expiry", operation: "expire",
        });
      }
      return due.map((r) => r.id);
    });
    invalidateStatus(ids);
    total += ids.length;
    if (ids.length < batchSize) return total;
  }
}
