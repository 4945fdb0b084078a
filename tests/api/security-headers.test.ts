import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, startServer, type StartedServer } from "../server";
import { baseUrl, call, issue, newAccount } from "../helpers";

/**
 * Security headers (issue 10, item 7) on every kind of answer the server gives: pages,
 * Next's own 404 page and 405s, API JSON and its errors, static files, QR images, JWKS.
 */

const cspOf = (h: Headers) => h.get("content-security-policy") ?? "";
const directive = (csp: string, name: string) =>
  csp.split(";").map((d) => d.trim()).find((d) => d.split(/\s+/)[0] === name) ?? "";
const nonceOf = (csp: string) => /'nonce-([A-Za-z0-9+/_=-]+)'/.exec(directive(csp, "script-src"))?.[1];

/** The headers every answer carries, whatever made it. */
function expectBaseline(h: Headers, what: string) {
  expect(h.get("x-content-type-options"), what).toBe("nosniff");
  expect(h.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  const pp = h.get("permissions-policy") ?? "";
  for (const feature of ["camera", "microphone", "geolocation", "payment", "usb"]) expect(pp, what).toContain(`${feature}=()`);
  const csp = cspOf(h);
  expect(directive(csp, "frame-ancestors"), what).toBe("frame-ancestors 'none'");
  expect(directive(csp, "object-src"), what).toBe("object-src 'none'");
  expect(csp, what).not.toContain("unsafe-eval");
  // The test server's public base URL is http: no HSTS (it would pin a host that has no TLS).
  expect(h.get("strict-transport-security"), what).toBeNull();
}

/** A page: a nonce CSP whose nonce Next put on every script tag of the page. */
function expectPage(r: { headers: Headers; text: string }, what: string) {
  expectBaseline(r.headers, what);
  expect(r.headers.get("content-type"), what).toMatch(/^text\/html/);
  const csp = cspOf(r.headers);
  const scriptSrc = directive(csp, "script-src");
  expect(scriptSrc, what).toContain("'strict-dynamic'");
  expect(scriptSrc, what).not.toContain("'unsafe-inline'");
  expect(directive(csp, "default-src"), what).toBe("default-src 'self'");
  const nonce = nonceOf(csp);
  expect(nonce, what).toMatch(/^[A-Za-z0-9+/]{22,}={0,2}$/);
  const scripts = r.text.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length, what).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, what).toContain(`nonce="${nonce}"`);
  return nonce!;
}

describe("security headers", () => {
  let recordId: string;

  beforeAll(async () => {
    const { sandboxKey } = await newAccount("headers");
    recordId = (await issue(sandboxKey)).verification_id;
  });

  it("pages carry a nonce CSP without 'unsafe-inline' scripts, the nonce on every script, fresh per request", async () => {
    const nonces = new Set<string>();
    for (const p of ["/", "/signin", "/signup", `/r/${recordId}`]) {
      const r = await call("GET", p);
      expect(r.status, p).toBe(200);
      nonces.add(expectPage(r, p));
    }
    const again = await call("GET", `/r/${recordId}`);
    nonces.add(expectPage(again, "certificate again"));
    expect(nonces.size).toBe(5);
  });

  it("Next's own 404 page and a redirect to sign-in carry them", async () => {
    const missing = await call("GET", "/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("Not found");
    expectPage(missing, "404 page");
    const missingRecord = await call("GET", "/r/PRS-00000000000000000000");
    expect(missingRecord.status).toBe(404);
    expectPage(missingRecord, "certificate 404");
    const redirect = await fetch(`${baseUrl()}/developers`, { redirect: "manual" });
    expect(redirect.status).toBe(307);
    expectBaseline(redirect.headers, "redirect");
  });

  it("API JSON answers and API errors (401, 404, 405) carry them", async () => {
    const { sandboxKey } = await newAccount("headers-api");
    const answers = [
      ["openapi", await call("GET", "/api/v1/openapi.json"), 200],
      ["health", await call("GET", "/api/health"), 200],
      ["list", await call("GET", "/api/v1/records", { key: sandboxKey }), 200],
      ["status", await call("GET", `/api/v1/records/${recordId}/status`), 200],
      ["no key", await call("GET", "/api/v1/records"), 401],
      ["unknown endpoint", await call("GET", "/api/v1/no-such-endpoint"), 404],
      ["unknown record", await call("GET", "/api/v1/records/PRS-00000000000000000000", { key: sandboxKey }), 404],
      ["wrong method (Next's 405)", await call("DELETE", "/.well-known/jwks.json"), 405],
      ["wrong method (ours)", await call("PUT", "/api/v1/records"), 405],
    ] as const;
    for (const [what, r, status] of answers) {
      expect(r.status, what).toBe(status);
      expectBaseline(r.headers, what);
    }
  });

  it("static files, QR images, JWKS and mandate-key answers carry them", async () => {
    const asset = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec((await call("GET", "/")).text)?.[1];
    expect(asset).toBeDefined();
    const answers = [
      ["static script", await fetch(baseUrl() + asset!), "javascript"],
      ["QR SVG", await fetch(`${baseUrl()}/r/${recordId}/qr`), "image/svg+xml"],
      ["QR PNG", await fetch(`${baseUrl()}/r/${recordId}/qr?format=png`), "image/png"],
      ["JWKS", await fetch(`${baseUrl()}/.well-known/jwks.json`), "json"],
      ["unknown mandate key", await fetch(`${baseUrl()}/keys/mk_nosuchkey`), "json"],
    ] as const;
    for (const [what, r, type] of answers) {
      expect(r.headers.get("content-type"), what).toContain(type);
      await r.arrayBuffer();
      expectBaseline(r.headers, what);
    }
  });

  it("answers the server writes before Next routes them carry them too", async () => {
    // A request target Next cannot parse; whatever it answers, it comes with the headers.
    const r = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const u = new URL(baseUrl());
      http.get({ host: u.hostname, port: u.port, path: "/r/%ED%A0%80" }, resolve).on("error", reject);
    });
    r.resume();
    const h = new Headers();
    for (const [k, v] of Object.entries(r.headers)) if (typeof v === "string") h.set(k, v);
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expectBaseline(h, `GET /r/%ED%A0%80 → ${r.statusCode}`);
  });
});

describe("HSTS when the public base URL is https", () => {
  let server: StartedServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-hsts-"));
    const port = await freePort();
    server = await startServer({
      ...inject("serverEnv"),
      PORT: String(port),
      DATA_DIR: dataDir,
      // Its own embedded database: this server only answers a few reads.
      DATABASE_URL: "",
      PUBLIC_BASE_URL: "https://records.example.test",
      WEBHOOK_ALLOW_INSECURE: "0",
      PASSWORD_HASH_FAST: "0", // refused with an https public base URL
      WEBHOOK_WORKER: "off",
    }, path.join(dataDir, "server.log"));
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is sent on pages, API answers and errors, and the CSP upgrades insecure requests", async () => {
    for (const p of ["/", "/api/health", "/api/v1/records", "/no-such-page", "/.well-known/jwks.json"]) {
      const r = await fetch(server.baseUrl + p);
      await r.arrayBuffer();
      expect(r.headers.get("strict-transport-security"), p).toBe("max-age=31536000; includeSubDomains");
      expect(r.headers.get("x-content-type-options"), p).toBe("nosniff");
    }
    const page = await fetch(`${server.baseUrl}/`);
    expect(cspOf(page.headers)).toContain("upgrade-insecure-requests");
  });
});
