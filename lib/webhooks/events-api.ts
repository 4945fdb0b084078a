import { and, asc, desc, eq, gt, inArray, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events, webhookAttempts, webhookDeliveries, webhooks } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { EVENT_ID_RE, RECORD_ID_RE } from "@/lib/ids";
import { eventsSince, getEventOrThrow } from "./manage-webhooks";

/** GET /api/v1/events: what it filters on (anything else is 422 unknown_field, as for the records list). */
export const listEventsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(25).describe("Page size, 1-100."),
  starting_after: z.string().regex(EVENT_ID_RE).optional().describe("Cursor: the last event id of the previous page."),
  type: z.string().max(64).regex(/^[a-z_]+\.[a-z_]+$/).optional().describe("Only events of this type (e.g. record.issued)."),
  record_id: z.string().regex(RECORD_ID_RE).optional().describe("Only events about this record."),
});

type EventRow = typeof events.$inferSelect;

/** The event as its webhook deliveries carry it (`data` is the delivered payload's), plus the record it is about. */
function serializeEvent(e: EventRow) {
  const payload = JSON.parse(e.payload) as { data: Record<string, unknown> };
  return {
    object: "event" as const,
    id: e.id,
    type: e.type,
    created_at: e.createdAt.toISOString(),
    environment: e.environment,
    record_id: e.recordId,
    data: payload.data,
  };
}

/**
 * The key's environment's events of the last 30 days, newest first, cursor-paginated
 * (`starting_after` = the last id of the previous page), optionally of one type or about one
 * record. Read from the outbox: every event the service raised, whether or not an endpoint
 * was subscribed to it.
 */
export async function listEvents(db: Db, auth: AuthContext, q: z.infer<typeof listEventsQuerySchema>, now = new Date()) {
  const conds: (SQL | undefined)[] = [
    eq(events.accountId, auth.accountId), eq(events.environment, auth.environment), gt(events.createdAt, eventsSince(now)),
  ];
  if (q.type) conds.push(eq(events.type, q.type));
  if (q.record_id) conds.push(eq(events.recordId, q.record_id));
  if (q.starting_after) {
    const [cursor] = await db
      .select({ createdAt: events.createdAt, id: events.id })
      .from(events)
      .where(and(eq(events.id, q.starting_after), eq(events.accountId, auth.accountId), eq(events.environment, auth.environment)));
    // An unknown cursor would silently restart at page one and loop a client forever.
    if (!cursor) throw new ApiError("invalid_value", `'starting_after' names no event of this API key.`, "starting_after");
    conds.push(or(lt(events.createdAt, cursor.createdAt), and(eq(events.createdAt, cursor.createdAt), lt(events.id, cursor.id))));
  }
  const rows = await db.select().from(events).where(and(...conds)).orderBy(desc(events.createdAt), desc(events.id)).limit(q.limit + 1);
  return { object: "list" as const, data: rows.slice(0, q.limit).map(serializeEvent), has_more: rows.length > q.limit };
}

/**
 * One event with its delivery to each endpoint: status, and every attempt (time, HTTP status,
 * latency, error, the answer's first 1 KiB), read in one snapshot — the worker records an
 * attempt and its delivery's status together.
 */
export async function getEvent(db: Db, auth: AuthContext, id: string) {
  return db.transaction(
    async (tx) => {
      const e = await getEventOrThrow(tx, auth, id);
      const deliveries = await tx
        .select({ d: webhookDeliveries, url: webhooks.url })
        .from(webhookDeliveries)
        .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
        .where(eq(webhookDeliveries.eventId, e.id))
        .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
      const ids = deliveries.map((r) => r.d.id);
      const attempts = ids.length
        ? await tx.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.attemptedAt))
        : [];
      return {
        ...serializeEvent(e),
        deliveries: deliveries.map(({ d, url }) => ({
          object: "webhook_delivery" as const,
          id: d.id,
          webhook_id: d.webhookId,
          url,
          status: d.status,
          attempts: attempts
            .filter((a) => a.deliveryId === d.id)
            .map((a) => ({ at: a.attemptedAt.toISOString(), status_code: a.statusCode, latency_ms: a.latencyMs, error: a.error, response: a.responseExcerpt })),
          next_attempt_at: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
        })),
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

