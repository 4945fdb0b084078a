import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../helpers";
import { startReceiver, waitFor } from "../webhook-receiver";
import { dataLayerTest } from "./setup";

// In-process, with delivery settings of its own — two retries, a threshold out of reach,
// a backlog of three — on a database of its own (a fresh PostgreSQL database when
// DATABASE_URL is set, so the test server's worker, configured otherwise, stays out).
const { db, sandboxCustomer, webhookEndpoint, raiseEvent } = await dataLayerTest({
  ownDatabase: "backlog",
  env: {
    WEBHOOK_ALLOW_INSECURE: "1",
    WEBHOOK_RETRY_SCHEDULE_MS: "30,30",
    WEBHOOK_DISABLE_AFTER: "50",
    WEBHOOK_BACKLOG_MAX: "3",
    WEBHOOK_BACKLOG_DAYS: undefined, // the default, 7
    PUBLIC_BASE_URL: undefined,
  },
});
const { runWorkerRound } = await import("@/lib/webhooks/delivery-worker");
const { enableWebhook, listDeliveries } = await import("@/lib/webhooks/manage-webhooks");
const { webhooks, webhookDeliveries } = await import("@/drizzle/schema");

const rx = await startReceiver();
afterAll(() => rx.close());

async function endpointFor(behaviour: Parameters<typeof rx.endpoint>[1]) {
  const { auth } = await sandboxCustomer({ tag: "bl" });
  const ep = rx.endpoint(`backlog-${randomBytes(3).toString("hex")}`, behaviour);
  const id = await webhookEndpoint(auth.accountId, ep);
  const raise = (label: string, at = new Date()) => raiseEvent(auth.accountId, { label }, at);
  const deliveries = async () => (await listDeliveries(db, auth, id)).data;
  return { auth, ep, id, raise, deliveries };
}

/** Run worker rounds until `done` holds (the retry delays are real, if short). */
const workUntil = <T>(done: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> =>
  until("the worker rounds' outcome", async () => {
    await runWorkerRound(db);
    return done();
  }, timeoutMs, 20);

describe("delivery rules", () => {
  it("records a delivery as failed when its retries run out, the endpoint staying enabled below the threshold", async () => {
    const { ep, id, raise, deliveries } = await endpointFor({ status: 500 });
    const evt = await raise("doomed");
    const [d] = await workUntil(async () => {
      const l = await deliveries();
      return l[0]?.status === "failed" ? l : undefined;
    });
    expect(d).toMatchObject({ event_id: evt, status: "failed", next_attempt_at: null });
    expect(d!.attempts.map((a) => a.status_code)).toEqual([500, 500, 500]); // the first try and the two retries of the schedule
    // Nothing after the last retry: no delivery of the endpoint is left pending (a failed one is
    // never claimed again), and further rounds find nothing at all to do.
    expect(await db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, "pending")))).toEqual([]);
    for (let i = 0; i < 5; i++) expect(await runWorkerRound(db)).toEqual({ dispatched: 0, sent: 0 });
    expect(ep.hits()).toBe(3);
    const [w] = await db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(w).toMatchObject({ status: "enabled", consecutiveFailures: 3 });
  });

  it("keeps what a disabled endpoint misses — the newest WEBHOOK_BACKLOG_MAX events of the last 7 days — and sends them oldest first once enabled", async () => {
    const { auth, ep, id, raise, deliveries } = await endpointFor({ status: 410 });
    const e0 = await raise("e0");
    await workUntil(async () => (await db.select().from(webhooks)).find((w) => w.id === id && w.status === "disabled"));
    expect(ep.hits()).toBe(1);
    const old = await raise("too old", new Date(Date.now() - 8 * 86_400_000));
    const base = Date.now();
    const later = [];
    for (let i = 1; i <= 5; i++) later.push(await raise(`e${i}`, new Date(base + i)));
    for (let i = 0; i < 3; i++) await runWorkerRound(db);
    expect(ep.hits()).toBe(1); // nothing is sent while disabled
    const byEvent = new Map((await deliveries()).map((d) => [d.event_id, d]));
    expect(byEvent.size).toBe(7); // every event got a delivery for the endpoint ...
    // ... of which the newest three are kept, the rest (older than the window, or past its size) failed unsent.
    expect([e0, old, ...later].map((e) => byEvent.get(e)?.status)).toEqual(["failed", "failed", "failed", "failed", "pending", "pending", "pending"]);
    expect(byEvent.get(old)!.attempts).toEqual([]);
    ep.behave({});
    await enableWebhook(db, auth, id);
    // Several workers at once still send one endpoint's deliveries one at a time, oldest first.
    await Promise.all([runWorkerRound(db), runWorkerRound(db), runWorkerRound(db)]);
    await workUntil(async () => ep.received().length >= 3);
    expect(ep.received().map((r) => r.id)).toEqual(later.slice(2));
    expect((await deliveries()).filter((d) => d.status === "succeeded").map((d) => d.event_id).sort()).toEqual(later.slice(2).sort());
    await waitFor(() => ep.received().every((r) => r.acked));
  });
});
