import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver } from "../webhook-receiver";

// In-process: several delivery workers at once, sending to a loopback receiver.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-unit-"));
process.env.DATA_DIR = dir;
process.env.WEBHOOK_ALLOW_INSECURE = "1";

const { getDb, closeDb } = await import("@/lib/db/client");
const { createAccount } = await import("@/lib/accounts/create-account");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { runWorkerRound } = await import("@/lib/webhooks/delivery-worker");
const { webhooks, events } = await import("@/drizzle/schema");
const { buildEvent } = await import("@/lib/outbox/write-event");

let db: Awaited<ReturnType<typeof getDb>>;
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  db = await getDb();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("delivery workers", () => {
  it("never double-send when several run at once", async () => {
    const a = await createAccount(db, { email: `wk-${randomBytes(4).toString("hex")}@example.test` });
    const auth = await authenticateApiKey(db, `Bearer ${a.sandboxKey}`);
    const ep = rx.endpoint(`workers-${randomBytes(3).toString("hex")}`);
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    ep.setSecret(secret);
    await db.insert(webhooks).values({
      id: `wh_${randomBytes(10).toString("hex")}`, accountId: auth.accountId, environment: "sandbox", url: ep.url, events: [], description: null,
      secret, status: "enabled", disabledReason: null, consecutiveFailures: 0, createdAt: new Date(), deletedAt: null,
    });
    const N = 40;
    for (let i = 0; i < N; i++) {
      await db.insert(events).values(buildEvent({ accountId: auth.accountId, environment: "sandbox", type: "record.issued", data: { i }, at: new Date() }));
    }
    await Promise.all([runWorkerRound(db), runWorkerRound(db), runWorkerRound(db)]);
    // On PostgreSQL the test server's own worker shares the table and may have taken some.
    for (let i = 0; i < 100 && ep.received().length < N; i++) await new Promise((r) => setTimeout(r, 100));
    const ids = ep.received().map((r) => r.id);
    expect(ids).toHaveLength(N);
    expect(new Set(ids).size).toBe(N);
    expect(ep.rejected()).toBe(0);
  });
});
