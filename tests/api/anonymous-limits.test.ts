import { randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { anonymousClass, anonymousRequest } from "@/lib/http/anonymous-class";
import { startServerOnFreePort, type StartedServer } from "../server";

/**
 * The anonymous allowances (lib/http/anonymous-limits.ts, counted in proxy.ts) on a server of
 * their own with small ones: each class answers 429 `rate_limited` with Retry-After and the
 * RateLimit-* headers once its allowance is spent, the classes count apart, and an IPv6
 * client is its /64. The shared test server runs with allowances far out of the suite's way.
 * Every test speaks from addresses of its own (TRUST_PROXY=1), so none spends another's
 * allowance — on PostgreSQL the counters are shared with every server on the database.
 */

const LIMITS = { record: 3, directory: 2, log: 2, public: 2 } as const;
const someAddress = () => `203.0.${randomInt(0, 256)}.${randomInt(1, 255)}`;

let server: StartedServer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-anon-"));

beforeAll(async () => {
  server = await startServerOnFreePort((port) => ({
    ...inject("serverEnv"), DATA_DIR: dir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, WEBHOOK_WORKER: "off",
    RECORD_READ_RATE_LIMIT_PER_MINUTE: String(LIMITS.record),
    DIRECTORY_RATE_LIMIT_PER_MINUTE: String(LIMITS.directory),
    LOG_RATE_LIMIT_PER_MINUTE: String(LIMITS.log),
    PUBLIC_RATE_LIMIT_PER_MINUTE: String(LIMITS.public),
  }), path.join(dir, "server.log"), {
    // On the embedded database this server's folder starts empty: it migrates it from nothing,
    // as `npm start` does on a fresh machine (every other test server starts from the template).
    template: false,
  });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (p: string, from: string) => fetch(`${server.baseUrl}${p}`, { headers: { "X-Forwarded-For": from }, redirect: "manual" });

/** Spend `limit` requests of `from`'s allowance on `paths` (in turn), then expect the next to be refused. */
async function spendThenRefused(paths: string[], limit: number, from = someAddress()) {
  for (let i = 1; i <= limit; i++) {
    const r = await get(paths[(i - 1) % paths.length]!, from);
    expect(r.status, `request ${i} to ${paths[(i - 1) % paths.length]}`).not.toBe(429);
    expect(r.headers.get("ratelimit-limit")).toBe(String(limit));
    expect(r.headers.get("ratelimit-remaining")).toBe(String(limit - i));
    await r.arrayBuffer();
  }
  const refused = await get(paths[limit % paths.length]!, from);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  expect(refused.headers.get("ratelimit-remaining")).toBe("0");
  expect(refused.headers.get("cache-control")).toBe("no-store");
  return refused;
}

describe("anonymous allowances per class", () => {
  it("record reads (status, status?at, signature, VC, log entries, QR, status lists, badge): 429 rate_limited in the error envelope", async () => {
    const refused = await spendThenRefused([
      "/api/v1/records/vr_doesnotexist/status",
      "/api/v1/records/vr_doesnotexist/status?at=2026-01-01T00:00:00Z",
      "/api/v1/status-lists/revocation/0",
    ], LIMITS.record);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(refused.headers.get("request-id")).toBeTruthy();
    const body = (await refused.json()) as { error: { code: string; type: string } };
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.type).toBe("rate_limit_error");
    // The same allowance covers the other record answers.
    for (const p of ["/api/v1/records/vr_x/signature", "/api/v1/records/vr_x/vc", "/api/v1/records/vr_x/log", "/r/vr_x/qr?format=png", "/sandbox/status-lists/suspension/0"]) {
      const from = someAddress();
      for (let i = 0; i < LIMITS.record; i++) await (await get(p, from)).arrayBuffer();
      expect((await get(p, from)).status, p).toBe(429);
    }
  });

  it("the certificate page answers a real 429 (a page, in plain text)", async () => {
    const refused = await spendThenRefused(["/r/vr_doesnotexist"], LIMITS.record);
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await refused.text()).toMatch(/Too many requests from your address/);
    expect(refused.headers.get("content-security-policy")).toBeTruthy(); // the security headers still apply
  });

  it("directory (page and search): its own, smaller allowance", async () => {
    const from = someAddress();
    const refused = await spendThenRefused(["/directory", "/directory?q=trading"], LIMITS.directory, from);
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    // Other classes are counted apart: a record read from the same address still answers.
    expect((await get("/api/v1/status-lists/revocation/0", from)).status).toBe(200);
  });

  it("transparency log (checkpoint, key, tiles)", async () => {
    const refused = await spendThenRefused(["/log/checkpoint", "/log/key"], LIMITS.log);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });

  it("public documents and pages (OpenAPI, keys, DID documents, guides)", async () => {
    const refused = await spendThenRefused(["/api/v1/openapi.json", "/.well-known/jwks.json"], LIMITS.public);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    const from = someAddress();
    for (let i = 0; i < LIMITS.public; i++) await (await get("/docs", from)).arrayBuffer();
    expect((await get("/developers", from)).status).toBe(429);
  });

  it("an IPv6 client is its /64: another address in it shares the allowance, another /64 does not", async () => {
    const net = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`;
    for (let i = 1; i <= LIMITS.log; i++) expect((await get("/log/checkpoint", `${net}::${i}`)).status).not.toBe(429);
    expect((await get("/log/checkpoint", `${net}::ffff`)).status).toBe(429);
    expect((await get("/log/checkpoint", `${net.replace(/:[^:]+$/, ":1")}::1`)).status).not.toBe(429);
  });

  it("not counted: health probes, lookup's own limit, API-key endpoints, POSTs", async () => {
    const from = someAddress();
    for (let i = 0; i < LIMITS.public + 2; i++) {
      expect((await get("/api/health/live", from)).status).toBe(200);
      const keyed = await get("/api/v1/records", from);
      expect(keyed.status).toBe(401);
      expect(keyed.headers.get("ratelimit-limit")).toBeNull();
    }
  });
});

describe("which requests are anonymous (lib/http/anonymous-limits.ts)", () => {
  it("every route and page answering without a key or session has a class", () => {
    const cases: [string, string, string | null][] = [
      ["GET", "/api/v1/records/vr_1/status", "record"], ["HEAD", "/api/v1/records/vr_1/signature", "record"],
      ["GET", "/api/v1/records/vr_1/vc", "record"], ["GET", "/api/v1/records/vr_1/log", "record"],
      ["GET", "/r/vr_1", "record"], ["GET", "/r/vr_1/qr", "record"], ["GET", "/embed.js", "record"], ["GET", "/embed/vr_1.svg", "record"],
      ["GET", "/api/v1/status-lists/revocation/0", "record"], ["GET", "/sandbox/status-lists/suspension/3", "record"],
      ["GET", "/directory", "directory"],
      ["GET", "/log/checkpoint", "log"], ["GET", "/log/key", "log"], ["GET", "/log/tile/0/000", "log"],
      ["GET", "/api/v1/openapi.json", "public"], ["GET", "/api/v1/webhooks/public-keys", "public"],
      ["GET", "/.well-known/did.json", "public"], ["GET", "/.well-known/jwks.json", "public"], ["GET", "/sandbox/did.json", "public"],
      ["GET", "/keys/k1", "public"], ["GET", "/ns/credentials/v1", "public"], ["GET", "/docs/api-reference.js", "public"],
      ["GET", "/", "public"], ["GET", "/docs/guides/x", "public"], ["GET", "/check", "public"], ["GET", "/no-such-record", "public"],
      // Not counted here: their own limits, keys and tokens, health, Next's assets, writes.
      ["GET", "/api/v1/lookup", null], ["GET", "/api/v1/check", null], ["GET", "/api/auth/session", null],
      ["GET", "/api/v1/records", null], ["GET", "/api/v1/records/vr_1", null], ["GET", "/api/health", null], ["GET", "/api/metrics", null],
      ["GET", "/_next/static/chunks/a.js", null], ["POST", "/r/vr_1", null], ["OPTIONS", "/api/v1/records/vr_1/status", null],
    ];
    for (const [method, p, cls] of cases) expect(anonymousClass(method, p), `${method} ${p}`).toBe(cls);
  });

  it("a refusal is a page where a browser navigates, the JSON envelope where a program reads", () => {
    const pages = ["/r/vr_1", "/r/vr_1/", "/directory", "/directory/acct_1", "/", "/check", "/docs/guides/x"];
    const data = ["/r/vr_1/qr", "/embed.js", "/embed/vr_1.svg", "/api/v1/records/vr_1/status", "/sandbox/status-lists/suspension/3",
      "/log/checkpoint", "/keys/k1", "/ns/credentials/v1", "/.well-known/did.json", "/sandbox/did.json", "/docs/api-reference.js", "/api/v1/openapi.json"];
    for (const p of pages) expect(anonymousRequest("GET", p)?.page, p).toBe(true);
    for (const p of data) expect(anonymousRequest("GET", p)?.page, p).toBe(false);
  });
});
