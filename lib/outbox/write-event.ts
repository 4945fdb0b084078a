import { events } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { newEventId } from "@/lib/ids";
import { nudgeOutbox } from "./wake";

export type EventType =
  | "record.issued"
  | "record.pending_review"
  | "record.rejected"
  | "record.status_changed"
  | "principal_link.changed"
  | "watch.matched"
  | "badge.seen_elsewhere"
  | "account.notice"
  | "webhook.test";

/** What a customer can subscribe to (webhook.test is only sent on request). */
export const SUBSCRIBABLE_EVENTS = [
  "record.issued", "record.pending_review", "record.rejected", "record.status_changed", "principal_link.changed",
  "watch.matched", "badge.seen_elsewhere", "account.notice",
] as const;

export type EventInput = {
  accountId: string; environment: "sandbox" | "live"; type: EventType; data: Record<string, unknown>; at: Date;
  /** `data.record` already serialised, when the caller has it: spliced in rather than stringified again. */
  recordJson?: string;
};

/** The outbox row for an event: `{id, type, created_at, environment, data}` (CONTRACT) as JSON text. */
export function buildEvent(e: EventInput) {
  const id = newEventId();
  const head = { id, type: e.type, created_at: e.at.toISOString(), environment: e.environment };
  const payload = e.recordJson
    ? `${JSON.stringify(head).slice(0, -1)},"data":{"record":${e.recordJson}}}`
    : JSON.stringify({ ...head, data: e.data });
  const record = e.data.record as { verification_id?: unknown } | undefined;
  const recordId = typeof record?.verification_id === "string" ? record.verification_id : null;
  return { id, accountId: e.accountId, environment: e.environment, type: e.type, payload, recordId, createdAt: e.at };
}

/** Append an event to the outbox; call it inside the transaction that made the change. */
export async function writeEvent(tx: DbOrTx, e: EventInput) {
  const row = buildEvent(e);
  await tx.insert(events).values(row);
  nudgeOutbox();
  return row.id;
}
