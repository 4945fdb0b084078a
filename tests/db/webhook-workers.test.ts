import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { until } from "../helpers";
import { startReceiver } from "../webhook-receiver";
import { dataLayerTest } from "./setup";

// In-process: several delivery workers at once, sending to a loopback receiver.
const { db, sandboxCustomer, webhookEndpoint, raiseEvent } = await dataLayerTest({ env: { WEBHOOK_ALLOW_INSECURE: "1" } });
const { runWorkerRound } = await import("@/lib/webhooks/delivery-worker");
const { webhookDeliveries } = await import("@/drizzle/schema");
const { eq } = await import("drizzle-orm");

const rx = await startReceiver();
afterAll(() => rx.close());

describe("delivery workers", () => {
  it("never double-send when several run at once", async () => {
    const { accountId } = await sandboxCustomer({ tag: "wk" });
    const ep = rx.endpoint(`workers-${randomBytes(3).toString("hex")}`);
    const hookId = await webhookEndpoint(accountId, ep);
    const N = 40;
    for (let i = 0; i < N; i++) await raiseEvent(accountId, { i });
    await Promise.all([runWorkerRound(db), runWorkerRound(db), runWorkerRound(db)]);
    // On PostgreSQL the test server's own worker shares the table and may have taken some. Once
    // every delivery is recorded as succeeded, none is sent again: what arrived is all that will.
    await until("every delivery sent and recorded", async () => {
      const rows = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hookId));
      return rows.length === N && rows.every((r) => r.status === "succeeded");
    }, 10_000);
    const ids = ep.received().map((r) => r.id);
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    expect(ep.rejected()).toBe(0);
  });
});
