import { eq } from "drizzle-orm";
import { recordHistory, records } from "@/drizzle/schema";
import type { Tx } from "@/lib/db/client";
import { writeEvent } from "@/lib/outbox/write-event";
import { loadPublicView } from "@/lib/public/record/public-view";
import { serializeRecord, type RecordRow } from "@/lib/public/record/serialize-record";

/**
 * Move a locked pending submission to `rejected` inside `tx`: the row (with the reason the
 * customer sees), an immutable history entry and the `record.rejected` event. Terminal. A
 * reviewer's rejection (lib/reviews/decide-submission.ts) and the expiry sweep's
 * (expire-records.ts, `system:expiry`) both end here.
 */
export async function reject(tx: Tx, row: RecordRow, o: { at: Date; by: string; reason: string }) {
  const [rejected] = await tx
    .update(records)
    .set({ status: "rejected", reviewReason: o.reason, statusChangedAt: o.at })
    .where(eq(records.id, row.id))
    .returning();
  await tx.insert(recordHistory).values({ recordId: row.id, status: "rejected", at: o.at, reason: o.reason, by: o.by });
  const body = serializeRecord(await loadPublicView(tx, rejected!, o.at.getTime()));
  await writeEvent(tx, { accountId: row.accountId, environment: row.environment, at: o.at, type: "record.rejected", data: { record: body } });
  return body;
}
