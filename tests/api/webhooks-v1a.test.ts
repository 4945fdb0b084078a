import { createPublicKey, verify, type JsonWebKey, type KeyObject } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call, issue, newAccount } from "../helpers";
import { startReceiver, waitFor, type Received } from "../webhook-receiver";

// The asymmetric signature (v1a, Ed25519) beside the HMAC (v1), checked the way a receiver
// without the shared secret would: node:crypto and the service's published keys.

let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

const header = (r: Received, name: string) => String(r.headers[name]);
const v1aOf = (r: Received) => {
  const entries = header(r, "webhook-signature").split(" ");
  const v1a = entries.filter((e) => e.startsWith("v1a,"));
  expect(v1a).toHaveLength(1);
  return Buffer.from(v1a[0]!.slice(4), "base64");
};
const content = (id: string, timestamp: string, body: string) => Buffer.from(`${id}.${timestamp}.${body}`, "utf8");

/** The receiver's key lookups: by kid in the JWKS, and by kid in the whpk_ list. */
async function keyFromJwks(kid: string): Promise<KeyObject> {
  const r = await call("GET", "/.well-known/jwks.json");
  const jwk = (r.body.keys as (JsonWebKey & { kid: string })[]).find((k) => k.kid === kid);
  expect(jwk, `kid ${kid} in the JWKS`).toBeDefined();
  return createPublicKey({ key: { kty: jwk!.kty, crv: jwk!.crv, x: jwk!.x }, format: "jwk" });
}
async function keyFromWhpk(kid: string): Promise<KeyObject> {
  const r = await call("GET", "/api/v1/webhooks/public-keys");
  const k = (r.body.keys as { kid: string; public_key: string }[]).find((x) => x.kid === kid);
  expect(k, `kid ${kid} in /api/v1/webhooks/public-keys`).toBeDefined();
  const raw = Buffer.from(k!.public_key.replace(/^whpk_/, ""), "base64");
  expect(raw).toHaveLength(32);
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
}

describe("webhooks signed v1a (Ed25519) as well as v1 (HMAC)", () => {
  it("a delivery verifies with standardwebhooks (v1) and, by its webhook-key-id, with node:crypto and the published keys (v1a)", async () => {
    const { sandboxKey } = await newAccount();
    const ep = rx.endpoint("v1a");
    const created = await call("POST", "/api/v1/webhooks", { key: sandboxKey, body: { url: ep.url } });
    expect(created.status).toBe(201);
    ep.setSecret(created.body.secret);
    const rec = await issue(sandboxKey);
    const got = await waitFor(() => ep.received()[0]);
    // The receiver accepts only what standardwebhooks verifies (v1), the v1a entry beside it.
    expect(ep.rejected()).toBe(0);
    expect(new Webhook(created.body.secret).verify(got.raw, got.headers as Record<string, string>)).toEqual(got.body);
    expect(header(got, "webhook-signature")).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1a,[A-Za-z0-9+/]{86}==$/);

    // The key that signed: the service's active signing key, the one that signed the record.
    const kid = header(got, "webhook-key-id");
    expect(kid).toBe(rec.integrity.signing_key_id);
    const id = header(got, "webhook-id");
    const ts = header(got, "webhook-timestamp");
    const sig = v1aOf(got);
    for (const key of [await keyFromJwks(kid), await keyFromWhpk(kid)]) {
      expect(verify(null, content(id, ts, got.raw), key, sig)).toBe(true);
      // One changed byte in the body, the id or the timestamp, and v1a fails.
      const flipped = Buffer.from(got.raw, "utf8");
      flipped.writeUInt8(flipped.readUInt8(flipped.length - 2) ^ 1, flipped.length - 2);
      expect(verify(null, content(id, ts, flipped.toString("utf8")), key, sig)).toBe(false);
      expect(verify(null, content(`${id.slice(0, -1)}${id.endsWith("a") ? "b" : "a"}`, ts, got.raw), key, sig)).toBe(false);
      expect(verify(null, content(id, String(Number(ts) - 1), got.raw), key, sig)).toBe(false);
    }
  });

  it("a test event is signed the same way", async () => {
    const { sandboxKey } = await newAccount();
    const ep = rx.endpoint("v1a-test");
    const created = await call("POST", "/api/v1/webhooks", { key: sandboxKey, body: { url: ep.url } });
    ep.setSecret(created.body.secret);
    expect((await call("POST", `/api/v1/webhooks/${created.body.id}/test`, { key: sandboxKey })).status).toBe(202);
    const got = await waitFor(() => ep.received().find((r) => r.type === "webhook.test"));
    const key = await keyFromWhpk(header(got, "webhook-key-id"));
    expect(verify(null, content(header(got, "webhook-id"), header(got, "webhook-timestamp"), got.raw), key, v1aOf(got))).toBe(true);
  });
});

describe("GET /api/v1/webhooks/public-keys", () => {
  it("is public, CORS-enabled, and lists the JWKS's keys as whpk_ keys", async () => {
    const r = await call("GET", "/api/v1/webhooks/public-keys");
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    const jwks = (await call("GET", "/.well-known/jwks.json")).body.keys as { kid: string; x: string }[];
    expect(jwks.length).toBeGreaterThan(0);
    expect(r.body).toEqual({
      keys: jwks.map((k) => ({ kid: k.kid, public_key: `whpk_${Buffer.from(k.x, "base64url").toString("base64")}` })),
    });
    for (const k of r.body.keys) expect(k.public_key).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
  });

  it("answers a preflight, and other methods with 405", async () => {
    const pre = await fetch(`${baseUrl()}/api/v1/webhooks/public-keys`, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const post = await call("POST", "/api/v1/webhooks/public-keys");
    expect(post.status).toBe(405);
    expect(post.body.error.code).toBe("method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET");
  });
});
