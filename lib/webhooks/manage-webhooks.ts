import { and, asc, desc, eq, gt, inArray, isNull } from "drizzle-orm";
import { nudgeOutbox } from "@/lib/outbox/wake";
import { z } from "zod";
import { events, webhookAttempts, webhookDeliveries, webhooks } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import type { Db, DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { EVENT_ID_RE, newDeliveryId, newWebhookId, newWebhookSecret, WEBHOOK_ID_RE } from "@/lib/ids";
import { buildEvent, SUBSCRIBABLE_EVENTS } from "@/lib/outbox/write-event";
import { NO_CONTROL, noControl } from "@/lib/record-model/schemas";
import { checkWebhookUrl } from "./destination";
import { trimBacklog } from "./trim-backlog";

export const webhookCreateSchema = z
  .strictObject({
    url: z.string().min(1).max(2000),
    events: z.array(z.enum(SUBSCRIBABLE_EVENTS)).max(SUBSCRIBABLE_EVENTS.length).optional(),
    description: z.string().max(500).regex(noControl, NO_CONTROL).optional(),
  })
  .meta({ id: "WebhookCreate" });

type Row = typeof webhooks.$inferSelect;

/** How long the secret before a rotation keeps signing: a day unless asked, at most a week, 0 = it stops now. */
export const ROTATION_OVERLAP_DEFAULT_S = 86_400;
export const ROTATION_OVERLAP_MAX_S = 7 * 86_400;

export const webhookRotateSchema = z
  .strictObject({
    expire_current_in_s: z.number().int().min(0).max(ROTATION_OVERLAP_MAX_S).optional()
      .describe("Seconds the current secret keeps signing beside the new one (default 86400, at most 604800; 0 = stop at once)."),
  })
  .meta({ id: "WebhookRotateSecret" });

export const webhookReplaySchema = z
  .strictObject({ event_id: z.string().min(1).max(100).describe("An event of this key's environment from the last 30 days (GET /api/v1/events).") })
  .meta({ id: "WebhookReplay" });

/** Events are listed, shown and replayed for 30 days. */
export const EVENT_RETENTION_DAYS = 30;
export const eventsSince = (now = new Date()) => new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);

/** The webhook object. The secret appears only in the answer to its creation. */
export function serializeWebhook(w: Row, opts: { withSecret?: boolean } = {}) {
  return {
    object: "webhook" as const,
    id: w.id,
    url: w.url,
    events: w.events.length ? w.events : [...SUBSCRIBABLE_EVENTS],
    description: w.description,
    status: w.status,
    disabled_reason: w.disabledReason,
    environment: w.environment,
    created_at: w.createdAt.toISOString(),
    previous_secret_expires_at: w.previousSecret && w.previousSecretExpiresAt && w.previousSecretExpiresAt > new Date()
      ? w.previousSecretExpiresAt.toISOString() : null,
    ...(opts.withSecret ? { secret: w.secret } : {}),
  };
}

export async function createWebhook(db: Db, auth: AuthContext, input: z.infer<typeof webhookCreateSchema>) {
  const checked = await checkWebhookUrl(input.url);
  if ("error" in checked) throw ApiError.fromField(checked.error);
  const row: Row = {
    id: newWebhookId(), accountId: auth.accountId, environment: auth.environment, url: checked.url,
    events: [...new Set(input.events ?? [])], description: input.description ?? null, secret: newWebhookSecret(),
    previousSecret: null, previousSecretExpiresAt: null, status: "enabled", disabledReason: null, consecutiveFailures: 0, createdAt: new Date(), deletedAt: null,
  };
  await db.insert(webhooks).values(row);
  return serializeWebhook(row, { withSecret: true });
}

export async function listWebhooks(db: Db, auth: AuthContext) {
  const rows = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, auth.accountId), eq(webhooks.environment, auth.environment), isNull(webhooks.deletedAt)))
    .orderBy(webhooks.createdAt);
  return { object: "list" as const, data: rows.map((w) => serializeWebhook(w)), has_more: false };
}

async function getWebhookOrThrow(db: Db, auth: AuthContext, id: string) {
  const notFound = new ApiError("webhook_not_found", `No webhook ${id.slice(0, 40)} for this API key.`, "id");
  if (!WEBHOOK_ID_RE.test(id)) throw notFound;
  const [w] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.accountId, auth.accountId), eq(webhooks.environment, auth.environment), isNull(webhooks.deletedAt)));
  if (!w) throw notFound;
  return w;
}

/**
 * Deleting stops all further deliveries to the endpoint; its history is kept. Rows are
 * locked in the worker's order (deliveries, then the webhook: see recordOutcome in
 * deliver-due.ts): the other order deadlocked on PostgreSQL when a delivery's outcome was
 * recorded during the delete, and the DELETE answered 500.
 */
export async function deleteWebhook(db: Db, auth: AuthContext, id: string) {
  const w = await getWebhookOrThrow(db, auth, id);
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed" })
      .where(and(eq(webhookDeliveries.webhookId, w.id), eq(webhookDeliveries.status, "pending")));
    await tx.update(webhooks).set({ deletedAt: new Date(), status: "disabled", disabledReason: "deleted" }).where(eq(webhooks.id, w.id));
  });
  return { object: "webhook" as const, id: w.id, deleted: true };
}

/**
 * Enable again: what was kept while disabled (within the backlog bounds, see trim-backlog.ts)
 * becomes due at once and goes out oldest event first, one at a time (deliver-due.ts).
 * Deliveries, then the webhook: the worker's lock order.
 */
export async function enableWebhook(db: Db, auth: AuthContext, id: string) {
  const w = await getWebhookOrThrow(db, auth, id);
  const row = await db.transaction(async (tx) => {
    if (w.status === "disabled") {
      await trimBacklog(tx, [w.id]);
      await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date() })
        .where(and(eq(webhookDeliveries.webhookId, w.id), eq(webhookDeliveries.status, "pending")));
    }
    const [updated] = await tx
      .update(webhooks)
      .set({ status: "enabled", disabledReason: null, consecutiveFailures: 0 })
      .where(eq(webhooks.id, w.id))
      .returning();
    return updated!;
  });
  nudgeOutbox();
  return serializeWebhook(row);
}

/** Queue a `webhook.test` event for this endpoint only; it goes through normal delivery. */
export async function sendTestEvent(db: Db, auth: AuthContext, id: string) {
  const w = await getWebhookOrThrow(db, auth, id);
  const e = buildEvent({
    accountId: auth.accountId, environment: auth.environment, type: "webhook.test", at: new Date(),
    data: { webhook: { id: w.id, url: w.url }, message: "This is a test event from Proof Records." },
  });
  await db.insert(events).values({ ...e, onlyWebhookId: w.id });
  nudgeOutbox();
  return { object: "event" as const, id: e.id, type: e.type, webhook_id: w.id, created_at: e.createdAt.toISOString() };
}

/**
 * A new secret, with the current one still signing for `expire_current_in_s` (default a day):
 * meanwhile every delivery carries a `v1` signature with each, so a receiver can switch at its
 * own pace without dropping one. A second rotation during an overlap drops the oldest secret.
 */
export async function rotateWebhookSecret(db: Db, auth: AuthContext, id: string, input: z.infer<typeof webhookRotateSchema>) {
  const w = await getWebhookOrThrow(db, auth, id);
  const overlapS = input.expire_current_in_s ?? ROTATION_OVERLAP_DEFAULT_S;
  const [row] = await db
    .update(webhooks)
    .set({
      secret: newWebhookSecret(),
      previousSecret: overlapS > 0 ? w.secret : null,
      previousSecretExpiresAt: overlapS > 0 ? new Date(Date.now() + overlapS * 1000) : null,
    })
    .where(eq(webhooks.id, w.id))
    .returning();
  return serializeWebhook(row!, { withSecret: true });
}

/**
 * Send one event again to one endpoint, with the same `webhook-id` (the event's id), so a
 * receiver that already has it can tell. The delivery becomes due now and starts its retry
 * schedule afresh; one already pending just becomes due now. Any event of the key's
 * environment from the last 30 days, whether or not the endpoint is subscribed to its type
 * (asked for by name); not to a disabled endpoint (enable it first).
 */
export async function replayEvent(db: Db, auth: AuthContext, id: string, input: z.infer<typeof webhookReplaySchema>) {
  const w = await getWebhookOrThrow(db, auth, id);
  if (w.status !== "enabled") {
    throw new ApiError("webhook_disabled", `Webhook ${w.id} is disabled; enable it (POST /api/v1/webhooks/${w.id}/enable) before replaying to it.`, "id");
  }
  const e = await getEventOrThrow(db, auth, input.event_id, "event_id");
  const now = new Date();
  const [d] = await db
    .insert(webhookDeliveries)
    .values({ id: newDeliveryId(), webhookId: w.id, eventId: e.id, status: "pending", attempts: 0, nextAttemptAt: now })
    .onConflictDoUpdate({
      target: [webhookDeliveries.webhookId, webhookDeliveries.eventId],
      // A delivery being sent at this moment keeps its lease, and that send's outcome is written over
      // this: the event was just sent (docs/decisions.md, issue 30).
      set: { status: "pending", attempts: 0, nextAttemptAt: now },
    })
    .returning();
  nudgeOutbox();
  return {
    object: "webhook_delivery" as const, id: d!.id, webhook_id: w.id, event_id: e.id, event_type: e.type, status: "pending" as const,
    next_attempt_at: d!.nextAttemptAt.toISOString(),
  };
}

/** One of the key's environment's events from the last 30 days, or 404 event_not_found. */
export async function getEventOrThrow(db: DbOrTx, auth: AuthContext, id: string, field = "id") {
  const notFound = new ApiError("event_not_found", `No event ${id.slice(0, 40)} of the last ${EVENT_RETENTION_DAYS} days for this API key.`, field);
  if (!EVENT_ID_RE.test(id)) throw notFound;
  const [e] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, id), eq(events.accountId, auth.accountId), eq(events.environment, auth.environment), gt(events.createdAt, eventsSince())));
  if (!e) throw notFound;
  return e;
}

/** Recent deliveries of an endpoint with every attempt (status code, latency, error), newest first. */
export async function listDeliveries(db: Db, auth: AuthContext, id: string, limit = 50) {
  const w = await getWebhookOrThrow(db, auth, id);
  // One snapshot for both reads: the worker records an attempt and the delivery's status in
  // one transaction, and the answer must never show the attempt beside the status before it.
  const { rows, attempts } = await db.transaction(
    async (tx) => {
      const rows = await tx
        .select()
        .from(webhookDeliveries)
        .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
        .where(eq(webhookDeliveries.webhookId, w.id))
        .orderBy(desc(webhookDeliveries.createdAt))
        .limit(limit);
      const ids = rows.map((r) => r.webhook_deliveries.id);
      const attempts = ids.length
        ? await tx.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.attemptedAt))
        : [];
      return { rows, attempts };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  return {
    object: "list" as const,
    data: rows.map(({ webhook_deliveries: d, events: e }) => ({
      object: "webhook_delivery" as const,
      id: d.id,
      event_id: e.id,
      event_type: e.type,
      status: d.status,
      attempts: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({ at: a.attemptedAt.toISOString(), status_code: a.statusCode, latency_ms: a.latencyMs, error: a.error, response: a.responseExcerpt })),
      next_attempt_at: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
      created_at: d.createdAt.toISOString(),
    })),
    has_more: false,
  };
}
