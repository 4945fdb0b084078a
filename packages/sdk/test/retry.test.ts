// Retries, against a local node:http server on 127.0.0.1 that answers as each test says.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, backoffMs, DEFAULT_RETRY, InvalidRequestError, parseRetryAfter, PrsClient, PrsConnectionError, RateLimitError } from "../src/index.js";

type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; at: number };
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | "hang-up";

let server: http.Server;
let base = "";
let script: Answer[] = [];
let seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() });
      const a = script.shift() ?? { status: 500, body: { error: { type: "api_error", code: "internal_error", message: "unscripted", request_id: "req_x" } } };
      if (a === "hang-up") return req.socket.destroy();
      res.writeHead(a.status, { "content-type": "application/json", ...a.headers }).end(a.body === undefined ? "" : JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function setup(...answers: Answer[]) {
  script = answers;
  seen = [];
}

const record = { object: "record", verification_id: "PRS-AAAAAAAAAAAAAAAAAAAA" };
const rateLimited = (retryAfter: string): Answer => ({
  status: 429, headers: { "retry-after": retryAfter, "request-id": "req_rl" },
  body: { error: { type: "rate_limit_error", code: "rate_limited", message: "Too many requests.", request_id: "req_rl" } },
});
const unavailable: Answer = { status: 503, body: { error: { type: "api_error", code: "service_unavailable", message: "Later.", request_id: "req_503" } } };
const body = { subject: "Acme Trading Ltd", claim_type: "company_status", claim: "Acme Trading Ltd is an active company." };
const client = (over: Partial<ConstructorParameters<typeof PrsClient>[0]> = {}) => new PrsClient({ baseUrl: base, apiKey: "prs_sandbox_test", ...over });

describe("retries", () => {
  it("429 with Retry-After (seconds): waits that long, then retries the POST with the same Idempotency-Key", async () => {
    setup(rateLimited("1"), { status: 201, body: record });
    const t0 = Date.now();
    const r = await client().request("createRecord", { body });
    const waited = seen[1]!.at - seen[0]!.at;
    expect(r.status).toBe(201);
    expect(r.data).toEqual(record);
    expect(r.attempts).toBe(2);
    expect(seen).toHaveLength(2);
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    const keys = seen.map((s) => s.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(r.idempotency_key).toBe(keys[0]);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(seen[0]!.headers.authorization).toBe("Bearer prs_sandbox_test");
  });

  it("429 with Retry-After as an HTTP date is honoured too", async () => {
    // An HTTP date has whole seconds: two seconds ahead is a wait of 1–2 s.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000);
    setup(rateLimited(at.toUTCString()), { status: 200, body: { keys: [] } });
    const r = await client().request("getJwks");
    expect(r.attempts).toBe(2);
    expect(seen[1]!.at).toBeGreaterThanOrEqual(at.getTime() - 50);
  });

  it("each call gets its own key; a given key is sent as it is", async () => {
    setup({ status: 201, body: record }, { status: 201, body: record }, { status: 201, body: record });
    const c = client();
    await c.records.create(body as never);
    await c.records.create(body as never);
    await c.records.create(body as never, { idempotencyKey: "order-4711" });
    const keys = seen.map((s) => s.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(3);
    expect(keys[2]).toBe("order-4711");
  });

  it("5xx and dropped connections are retried with exponential backoff, within maxAttempts", async () => {
    setup(unavailable, "hang-up", { status: 200, body: { object: "list", data: [], has_more: false } });
    const r = await client({ retry: { baseDelayMs: 100 } }).request("listWebhooks");
    expect(r.attempts).toBe(3);
    const gaps = [seen[1]!.at - seen[0]!.at, seen[2]!.at - seen[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(45); // 100 ms step: 50–100 ms
    expect(gaps[1]).toBeGreaterThanOrEqual(95); // 200 ms step: 100–200 ms
  });

  it("gives up after maxAttempts with the last error, typed", async () => {
    setup(unavailable, unavailable, unavailable, { status: 200, body: {} });
    const e = await client({ retry: { baseDelayMs: 10 } }).request("getUsage").catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 503, type: "api_error", code: "service_unavailable", request_id: "req_503", attempts: 3 });
    expect(seen).toHaveLength(3);
  });

  it("does not wait past maxElapsedMs: a Retry-After beyond it is thrown at once", async () => {
    setup(rateLimited("120"), { status: 200, body: {} });
    const t0 = Date.now();
    const e = await client().request("lookup", { query: { q: "x" } }).catch((x) => x);
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e).toMatchObject({ code: "rate_limited", retry_after: 120, attempts: 1 });
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(seen).toHaveLength(1);
  });

  it("a POST without an Idempotency-Key is never retried", async () => {
    setup(unavailable, { status: 201, body: {} });
    const e = await client().webhooks.create({ url: "https://hooks.example/x" }).catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("a 2xx whose body is not JSON is an ApiError, not a SyntaxError", async () => {
    const text = http.createServer((_, res) => res.writeHead(200, { "content-type": "text/html", "request-id": "req_html" }).end("<html>proxy</html>"));
    await new Promise<void>((r) => text.listen(0, "127.0.0.1", r));
    try {
      const e = await new PrsClient({ baseUrl: `http://127.0.0.1:${(text.address() as AddressInfo).port}` }).meta.health().catch((x) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ status: 200, code: "invalid_response", request_id: "req_html" });
    } finally {
      await new Promise<void>((r) => text.close(() => r()));
    }
  });

  it("4xx answers are not retried", async () => {
    setup({ status: 422, body: { error: { type: "invalid_request_error", code: "unknown_field", message: "Unknown field 'colour'.", param: "colour", request_id: "req_422" } } });
    const e = await client().records.create(body as never).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidRequestError);
    expect(e).toMatchObject({ status: 422, code: "unknown_field", param: "colour", request_id: "req_422" });
    expect(seen).toHaveLength(1);
  });

  it("409 idempotency_key_in_use is retried with the same key", async () => {
    setup({ status: 409, body: { error: { type: "idempotency_error", code: "idempotency_key_in_use", message: "Still running.", request_id: "req_409" } } }, { status: 201, body: record });
    const r = await client({ retry: { baseDelayMs: 20 } }).request("createRecord", { body });
    expect(r.attempts).toBe(2);
    expect(seen[1]!.headers["idempotency-key"]).toBe(seen[0]!.headers["idempotency-key"]);
  });

  it("a server that never answers is a PrsConnectionError after the per-attempt timeout", async () => {
    setup();
    const hang = http.createServer(() => undefined);
    await new Promise<void>((r) => hang.listen(0, "127.0.0.1", r));
    try {
      const c = new PrsClient({ baseUrl: `http://127.0.0.1:${(hang.address() as AddressInfo).port}`, timeoutMs: 200, retry: { maxAttempts: 2, baseDelayMs: 10 } });
      const e = await c.meta.liveness().catch((x) => x);
      expect(e).toBeInstanceOf(PrsConnectionError);
      expect(e).toMatchObject({ status: 0, type: "connection_error", code: "timeout", attempts: 2 });
    } finally {
      hang.closeAllConnections();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });
});

describe("the retry arithmetic", () => {
  it("Retry-After: seconds, HTTP dates, and nonsense", () => {
    const now = Date.parse("2026-11-24T10:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Tue, 24 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Tue, 24 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("-1", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it("backoff doubles to a cap, with half of each step random", () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, p, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, p, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
});
