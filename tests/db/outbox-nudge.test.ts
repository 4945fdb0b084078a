import { afterAll, describe, expect, it } from "vitest";
import { startReceiver, waitFor } from "../webhook-receiver";
import { dataLayerTest } from "./setup";

/*
 * The worker is nudged, not only polled (lib/outbox/wake.ts): with its poll a minute away, an
 * event this process writes is delivered at once, and a failed send is retried when its delay
 * is up. Each wait below ends well before the next poll could have happened, so a broken nudge
 * fails here rather than slowing every webhook down to the poll.
 */
const { db, sandboxCustomer, webhookEndpoint } = await dataLayerTest({
  ownDatabase: "outbox_nudge", // on PostgreSQL, no other worker may take these deliveries
  env: { WEBHOOK_ALLOW_INSECURE: "1", WORKER_POLL_MS: "60000", WEBHOOK_RETRY_SCHEDULE_MS: "300,300,300" },
});
const { startDeliveryWorker } = await import("@/lib/webhooks/delivery-worker");
const { writeEvent } = await import("@/lib/outbox/write-event");

const rx = await startReceiver();
afterAll(() => rx.close());

describe("the webhook worker is nudged by its own process", () => {
  it("delivers an event written in this process at once, and retries a failed send when it is due — not at the next poll", async () => {
    const { accountId } = await sandboxCustomer({ tag: "nudge" });
    const flaky = rx.endpoint("flaky", { failTimes: 2 });
    await webhookEndpoint(accountId, flaky);
    const stop = startDeliveryWorker(db); // it looks once now; its next poll is a minute away
    try {
      const id = await db.transaction((tx) => writeEvent(tx, { accountId, environment: "sandbox", type: "record.issued", data: { n: 1 }, at: new Date() }));
      // Two 500s, two retries 300 ms apart, then the delivery: nudged each time (waitFor gives up long before a poll).
      await waitFor(() => flaky.received().some((r) => r.id === id), 15_000);
      expect(flaky.hits()).toBe(3);
      expect(flaky.received().map((r) => r.id)).toEqual([id]);
    } finally {
      await stop();
    }
  }, 30_000);
});
