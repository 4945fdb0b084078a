import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver } from "../webhook-receiver";

// In-process: the SSRF guard with the insecure switch off, and concurrent workers.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-unit-"));
process.env.DATA_DIR = dir;
delete process.env.WEBHOOK_ALLOW_INSECURE;

const { getDb, closeDb } = await import("@/lib/db/client");
const { getEnv } = await import("@/lib/env");
const { createAccount } = await import("@/lib/accounts/create-account");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { checkWebhookUrl, guardedLookup, isPublicAddress } = await import("@/lib/webhooks/destination");
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

describe("SSRF guard", () => {
  it("classifies addresses", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "224.0.0.1"]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111"]) expect(isPublicAddress(ip), ip).toBe(true);
  });

  it("refuses non-https, loopback, private, link-local and metadata destinations at registration", async () => {
    expect(getEnv().WEBHOOK_ALLOW_INSECURE).toBe("0");
    for (const url of [
      "http://93.184.215.14/hook", "https://127.0.0.1/hook", "https://localhost/hook", "https://[::1]/hook",
      "https://169.254.169.254/latest/meta-data", "https://10.0.0.5/x", "https://[::ffff:192.168.0.1]/x",
    ]) {
      const r = await checkWebhookUrl(url);
      expect("error" in r && r.error.code, url).toBe("invalid_webhook_url");
    }
    expect(await checkWebhookUrl("https://93.184.215.14/hook")).toEqual({ url: "https://93.184.215.14/hook" });
  });

  it("refuses at connect time when a name resolves to a private address (no rebinding)", async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup("localhost", {}, (e) => resolve(e)));
    expect(err?.code).toBe("EBLOCKED");
  });
});

describe("delivery workers", () => {
  it("never double-send when several run at once", async () => {
    process.env.WEBHOOK_ALLOW_INSECURE = "1";
    (getEnv() as { WEBHOOK_ALLOW_INSECURE: string }).WEBHOOK_ALLOW_INSECURE = "1";
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
    expect(ep.received().every((r) => r.verified)).toBe(true);
  });
});
