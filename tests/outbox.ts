import { expect } from "vitest";
import { call, issue, newAccount, registerHook, until } from "./helpers";
import { withServerDb } from "./server-db";
import type { Receiver } from "./webhook-receiver";

/**
 * Facts about the outbox (docs/api.md §14), for tests that assert that something did NOT
 * happen — instead of waiting a while and looking.
 *
 * - An event is written in the transaction of the change it announces (a `watch.matched` in
 *   the one that issues the record), so once the request that made a change has answered,
 *   `GET /api/v1/events` already lists every event it raised: "no such event" is read at once.
 * - Deliveries go out afterwards, by the worker. "Nothing (more) arrives at these endpoints" is
 *   known once every event of the account has been fanned out (`events.dispatched_at`) and none
 *   of the endpoints' deliveries is still pending: a delivery that succeeded or failed is never
 *   sent again, and no new one appears until a new event is raised. (A succeeded delivery has
 *   reached the receiver: the worker records it after the 2xx answer.)
 */

/** An event as GET /api/v1/events answers it. */
export type ApiEvent = { id: string; type: string; created_at: string; environment: string; record_id: string | null; data: any };

/** Every event of the key's environment (all pages), oldest first; `filter` as for GET /api/v1/events. */
export async function allEvents(key: string, filter: { type?: string; record_id?: string } = {}): Promise<ApiEvent[]> {
  const out: ApiEvent[] = [];
  for (let after: string | undefined; ;) {
    const q = new URLSearchParams({ ...filter, limit: "100", ...(after ? { starting_after: after } : {}) });
    const r = await call("GET", `/api/v1/events?${q}`, { key });
    expect(r.status, r.text).toBe(200);
    out.push(...r.body.data);
    if (!r.body.has_more) return out.reverse();
    after = r.body.data.at(-1).id;
  }
}

export type DeliveryRow = { webhook_id: string; event_id: string; status: "pending" | "succeeded" | "failed"; attempts: number };

/**
 * Wait (bounded) until the outbox has nothing left to send `webhookIds`: every event of the
 * accounts fanned out, none of these endpoints' deliveries pending. Returns those endpoints'
 * deliveries, oldest event first. An endpoint that is disabled keeps its deliveries pending:
 * do not wait on one (see workerMarker).
 */
export async function untilDelivered(accountIds: string | readonly string[], webhookIds: readonly string[], timeoutMs = 20_000): Promise<DeliveryRow[]> {
  const accounts = typeof accountIds === "string" ? [accountIds] : [...accountIds];
  return until(`every event of ${accounts.join(", ")} delivered to ${webhookIds.join(", ")}`, () =>
    withServerDb(async (sql) => {
      // One snapshot for both reads (a fan-out commits its events' dispatch and their deliveries together).
      return sql.begin("isolation level repeatable read", async (tx) => {
        const [waiting] = await tx<{ n: number }[]>`
          select count(*)::int as n from events where account_id in ${tx(accounts)} and dispatched_at is null`;
        if (waiting!.n > 0) return undefined;
        const rows = await tx<DeliveryRow[]>`
          select d.webhook_id, d.event_id, d.status, d.attempts from webhook_deliveries d join events e on e.id = d.event_id
          where d.webhook_id in ${tx(webhookIds as string[])} order by e.created_at, e.id`;
        return rows.some((d) => d.status === "pending") ? undefined : rows;
      });
    }), timeoutMs);
}

/**
 * A marker for "the delivery worker has gone round since now": a fresh account's event, waited
 * for at its own endpoint. The worker claims the due deliveries of all endpoints in one
 * statement, the longest-due endpoint first (lib/webhooks/deliver-due.ts claimDue), so a
 * delivery that was already due when the marker was raised — and claimable — was claimed no
 * later than the marker's. Used before asserting that a held delivery was not sent.
 */
export async function workerMarker(rx: Receiver): Promise<void> {
  const { sandboxKey } = await newAccount("marker");
  const { ep } = await registerHook(rx, sandboxKey);
  const rec = await issue(sandboxKey, { subject: "Marker Ltd" });
  await until("the marker event at its endpoint", () => ep.received().some((r) => r.body.data.record.verification_id === rec.verification_id));
}
