import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, MAX_BODY_BYTES } from "./http";

/** The HTTP helper against a real loopback server: every failure is data, never a throw. */
let server: http.Server;
let base: string;
const routes: Record<string, (res: http.ServerResponse) => void> = {
  "/ok": (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"a":1}'),
  "/redirect": (res) => res.writeHead(302, { location: "/ok" }).end(),
  "/huge": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(`"${"x".repeat(MAX_BODY_BYTES + 10)}"`);
  },
  "/stall-body": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"a":'); // and never finish
  },
  "/teapot": (res) => res.writeHead(418, { "retry-after": "7" }).end("not json"),
};

beforeAll(async () => {
  server = http.createServer((req, res) => (routes[req.url ?? ""] ?? ((r) => r.writeHead(404).end()))(res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("getJson", () => {
  const source = () => ({ baseUrl: `${base}/`, timeoutMs: 700 });

  it("parses a JSON answer", async () => {
    expect(await getJson(source(), "/ok")).toEqual({ kind: "answered", status: 200, retryAfter: null, body: { a: 1 }, text: '{"a":1}' });
  });

  it("gives the status, Retry-After and why there is no body", async () => {
    expect(await getJson(source(), "teapot")).toEqual({ kind: "answered", status: 418, retryAfter: "7", body: undefined, bodyError: "the answer is not JSON", bodyText: "not json", text: "not json" });
  });

  it("does not follow redirects", async () => {
    expect(await getJson(source(), "redirect")).toEqual({ kind: "failed", reason: "answered with a redirect, which is not followed" });
  });

  it("stops reading an answer over the size cap", async () => {
    expect(await getJson(source(), "huge")).toEqual({ kind: "failed", reason: `sent an answer larger than ${MAX_BODY_BYTES} bytes` });
  });

  it("times out a body that never ends", async () => {
    const started = Date.now();
    expect(await getJson(source(), "stall-body")).toEqual({ kind: "failed", reason: "did not answer within 700 ms" });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
