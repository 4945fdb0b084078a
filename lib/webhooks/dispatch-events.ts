import { and, inArray, isNull, sql } from "drizzle-orm";
import { events, webhookDeliveries, webhooks } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { newDeliveryId } from "@/lib/ids";
import { trimBacklog } from "./trim-backlog";

/**
 * Fan new outbox events out to the endpoints subscribed at that moment: one delivery per
 * (endpoint, event), unique, so a repeated fan-out cannot double-send. Events are claimed
 * with SKIP LOCKED, so several workers share the work. A disabled endpoint gets its
 * deliveries too: they wait, within the backlog bounds (trim-backlog.ts), until it is
 * enabled again.
 */
export async function dispatchEvents(db: Db, limit = 200): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: events.id, accountId: events.accountId, environment: events.environment, type: events.type, only: events.onlyWebhookId })
      .from(events)
      .where(isNull(events.dispatchedAt))
      .orderBy(events.createdAt)
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return 0;
    const hooks = await tx
      .select({ id: webhooks.id, accountId: webhooks.accountId, environment: webhooks.environment, events: webhooks.events, status: webhooks.status })
      .from(webhooks)
      .where(and(inArray(webhooks.accountId, [...new Set(due.map((e) => e.accountId))]), isNull(webhooks.deletedAt)));
    const now = new Date();
    const rows = due.flatMap((e) =>
      hooks
        .filter((w) => w.accountId === e.accountId && w.environment === e.environment)
        .filter((w) => (e.only ? w.id === e.only : e.type !== "webhook.test" && (w.events.length === 0 || w.events.includes(e.type))))
        .map((w) => ({ id: newDeliveryId(), webhook_id: w.id, event_id: e.id })),
    );
    // One JSON parameter for all rows (200 events × 20 endpoints would be 20,000 bind parameters).
    if (rows.length) {
      await tx.execute(sql`
        insert into ${webhookDeliveries} (id, webhook_id, event_id, status, next_attempt_at)
        select r.id, r.webhook_id, r.event_id, 'pending', ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, webhook_id text, event_id text)
        on conflict do nothing`);
    }
    const held = new Set(rows.map((r) => r.webhook_id));
    await trimBacklog(tx, hooks.filter((w) => w.status === "disabled" && held.has(w.id)).map((w) => w.id));
    await tx.update(events).set({ dispatchedAt: now }).where(inArray(events.id, due.map((e) => e.id)));
    return due.length;
  });
}
