import { afterAll, describe, expect, it } from "vitest";
import { until } from "../helpers";
import { startReceiver, waitFor } from "../webhook-receiver";
import { dataLayerTest } from "./setup";

// The running worker with a slow-drip receiver and a healthy one on the same worker: the
// slow one must hold one send for at most its deadline and never the other's events.
const TIMEOUT_MS = 4000;
const { db, sandboxCustomer, webhookEndpoint, raiseEvent } = await dataLayerTest({
  ownDatabase: "webhook_isolation", // on PostgreSQL, no other worker may take these deliveries
  env: { WEBHOOK_ALLOW_INSECURE: "1", WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WORKER_POLL_MS: "50", WEBHOOK_RETRY_SCHEDULE_MS: "600000" },
});
const { startDeliveryWorker } = await import("@/lib/webhooks/delivery-worker");
const { webhookAttempts, webhookDeliveries } = await import("@/drizzle/schema");
const { eq } = await import("drizzle-orm");

const rx = await startReceiver();
afterAll(() => rx.close());

const attemptsOf = (webhookId: string) =>
  db.select({ error: webhookAttempts.error, latencyMs: webhookAttempts.latencyMs, statusCode: webhookAttempts.statusCode })
    .from(webhookAttempts).innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(eq(webhookDeliveries.webhookId, webhookId));

describe("webhook delivery isolated per destination", () => {
  it("a receiver that trickles its answer holds one send until the deadline, while another endpoint gets every event", async () => {
    const { accountId } = await sandboxCustomer({ tag: "iso" });
    const slow = rx.endpoint("slow-drip", { trickle: true });
    const fast = rx.endpoint("healthy");
    const slowId = await webhookEndpoint(accountId, slow);
    await webhookEndpoint(accountId, fast);
    const stop = startDeliveryWorker(db);
    try {
      const first = await raiseEvent(accountId, { n: 1 });
      await waitFor(() => slow.hits() === 1 && fast.received().some((r) => r.id === first));
      const started = Date.now();
      // While the slow endpoint is still dripping its answer, later events reach the healthy one.
      const later = [await raiseEvent(accountId, { n: 2 }), await raiseEvent(accountId, { n: 3 })];
      await waitFor(() => later.every((id) => fast.received().some((r) => r.id === id)), TIMEOUT_MS);
      expect(slow.closedAt()).toEqual([]); // the slow send was still open when they arrived
      expect(slow.hits()).toBe(1); // and the slow endpoint had one send in flight, not three
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
      expect(fast.received().map((r) => r.id)).toEqual([first, ...later]);

      // The drip never stops, yet the attempt ends at its deadline (headers and body), recorded as failed.
      const rows = await pollRows(() => attemptsOf(slowId), TIMEOUT_MS + 5000);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.statusCode).toBeNull();
      expect(rows[0]!.error).toMatch(new RegExp(`no answer within ${TIMEOUT_MS} ms`));
      expect(rows[0]!.latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(rows[0]!.latencyMs).toBeLessThan(TIMEOUT_MS + 2000);
      await waitFor(() => slow.closedAt().length >= 1); // the sender closed the connection
    } finally {
      await stop();
    }
  }, 30_000);
});

/** The rows `read` answers once there are any (bounded). */
const pollRows = <T>(read: () => Promise<T[]>, timeoutMs: number): Promise<T[]> =>
  until("rows to appear", async () => {
    const rows = await read();
    return rows.length > 0 && rows;
  }, timeoutMs);
