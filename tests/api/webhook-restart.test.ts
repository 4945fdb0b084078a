import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, startServer } from "../server";
import { startReceiver, waitFor } from "../webhook-receiver";

/**
 * A server of its own (own data folder, or its own fresh PostgreSQL database) so it can be
 * killed: the record change commits with its outbox event, the process dies with SIGKILL
 * before any delivery, and after a restart the event is delivered exactly once.
 */
let rx: Awaited<ReturnType<typeof startReceiver>>;
let dataDir: string;
let dbName: string | undefined;
let adminUrl: string | undefined;

beforeAll(async () => {
  rx = await startReceiver();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-restart-"));
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
    dbName = `prs_restart_${Date.now()}`;
    const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database ${dbName}`);
    await sql.end();
  }
});

afterAll(async () => {
  await rx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (dbName && adminUrl) {
    const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop database if exists ${dbName} with (force)`);
    await sql.end();
  }
});

describe("webhook delivery survives a crash", () => {
  it("delivers an event written before a SIGKILL once, after restart", async () => {
    const port = await freePort();
    const env: Record<string, string> = {
      ...inject("serverEnv"), PORT: String(port), DATA_DIR: dataDir, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    };
    if (dbName) env.DATABASE_URL = adminUrl!.replace(/\/[^/?]+(\?|$)/, `/${dbName}$1`);
    const log = path.join(dataDir, "server.log");
    const api = (base: string, p: string, init: RequestInit & { key?: string } = {}) =>
      fetch(base + p, {
        ...init,
        headers: { "Content-Type": "application/json", ...(init.key ? { Authorization: `Bearer ${init.key}` } : {}), ...(init.headers ?? {}) },
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    // 1. Worker off: the event can only sit in the outbox.
    const first = await startServer({ ...env, WEBHOOK_WORKER: "off" }, log);
    const rt = JSON.parse(fs.readFileSync(path.join(dataDir, "server.json"), "utf8"));
    const acct = await api(first.baseUrl, "/api/internal/admin", {
      method: "POST", headers: { Authorization: `Bearer ${rt.token}` }, body: JSON.stringify({ argv: ["account", "create", "--email", `restart-${port}@example.test`] }),
    });
    const key = acct.body.result.sandbox_key;
    const ep = rx.endpoint("restart");
    const hook = await api(first.baseUrl, "/api/v1/webhooks", { method: "POST", key, body: JSON.stringify({ url: ep.url }) });
    ep.setSecret(hook.body.secret);
    const rec = await api(first.baseUrl, "/api/v1/records", {
      method: "POST", key, headers: { "Idempotency-Key": "restart-1" },
      body: JSON.stringify({ subject: "Crash Ltd", claim_type: "company_status", claim: "Crash Ltd is active." }),
    });
    expect(rec.status).toBe(201);
    await first.kill9();
    expect(ep.hits()).toBe(0);

    // 2. Restart with the worker: delivered once.
    const second = await startServer({ ...env, WEBHOOK_WORKER: "on" }, log);
    try {
      await waitFor(() => ep.received().length >= 1, 15_000);
      await new Promise((r) => setTimeout(r, 800));
      expect(ep.received()).toHaveLength(1);
      expect(ep.received()[0]).toMatchObject({ type: "record.issued", verified: true });
      expect(ep.received()[0]!.body.data.record.verification_id).toBe(rec.body.verification_id);
    } finally {
      await second.stop();
    }
  });
});
