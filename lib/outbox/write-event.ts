import { events } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { newEventId } from "@/lib/ids";

export type EventType =
  | "record.issued"
  | "record.pending_review"
  | "record.rejected"
  | "record.status_changed"
  | "principal_link.changed";

/** Append an event to the outbox; call it inside the transaction that made the change. */
export async function writeEvent(
  tx: DbOrTx,
  e: { accountId: string; environment: "sandbox" | "live"; type: EventType; data: Record<string, unknown>; at: Date },
) {
  const id = newEventId();
  const payload = { id, type: e.type, created_at: e.at.toISOString(), environment: e.environment, data: e.data };
  await tx.insert(events).values({ id, accountId: e.accountId, environment: e.environment, type: e.type, payload, createdAt: e.at });
  return id;
}
