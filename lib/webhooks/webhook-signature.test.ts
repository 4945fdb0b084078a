import { createPublicKey, generateKeyPairSync, randomBytes, verify } from "node:crypto";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signedContent, signWebhook, whpk } from "./webhook-signature";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const key = { kid: "prs-test-key", privateObject: privateKey };
const secret = `whsec_${randomBytes(32).toString("base64")}`;
const body = JSON.stringify({ id: "evt_123", type: "record.issued", data: { n: "é" } });

const v1aOf = (header: string) => header.split(" ").find((s) => s.startsWith("v1a,"))!.slice(4);

describe("webhook signature headers", () => {
  it("carries v1 and v1a over the same content, space-separated, and names the key", () => {
    const at = new Date();
    const h = signWebhook({ secret, key, id: "evt_123", at, body });
    expect(h["webhook-id"]).toBe("evt_123");
    expect(h["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(h["webhook-key-id"]).toBe("prs-test-key");
    expect(h["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1a,[A-Za-z0-9+/]{86}==$/);
    expect(h["webhook-signature"].split(" ")[0]).toBe(new Webhook(secret).sign("evt_123", at, body));
    const content = signedContent("evt_123", h["webhook-timestamp"], body);
    expect(content.toString("utf8")).toBe(`evt_123.${h["webhook-timestamp"]}.${body}`);
    expect(verify(null, content, publicKey, Buffer.from(v1aOf(h["webhook-signature"]), "base64"))).toBe(true);
  });

  it("still verifies with the standardwebhooks library (it skips the v1a entry), and not with another secret", () => {
    const h = signWebhook({ secret, key, id: "evt_123", at: new Date(), body });
    expect(new Webhook(secret).verify(body, h)).toEqual(JSON.parse(body));
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(body, h)).toThrow(WebhookVerificationError);
    // Only the v1a entry left: the library finds no signature it checks.
    const onlyV1a = { ...h, "webhook-signature": h["webhook-signature"].split(" ")[1]! };
    expect(() => new Webhook(secret).verify(body, onlyV1a)).toThrow("No matching signature found");
  });

  it("v1a fails for a changed byte in the body, the id or the timestamp", () => {
    const h = signWebhook({ secret, key, id: "evt_123", at: new Date(), body });
    const sig = Buffer.from(v1aOf(h["webhook-signature"]), "base64");
    const ts = h["webhook-timestamp"];
    const ok = (id: string, t: string, b: string) => verify(null, signedContent(id, t, b), publicKey, sig);
    expect(ok("evt_123", ts, body)).toBe(true);
    expect(ok("evt_124", ts, body)).toBe(false);
    expect(ok("evt_123", String(Number(ts) + 1), body)).toBe(false);
    expect(ok("evt_123", ts, body.replace("record.issued", "record.issuee"))).toBe(false);
  });

  it("refuses an id that is not a plain token, so signed content never begins with '{' (or holds an extra '.')", () => {
    for (const id of ['{"a":1}', "evt.1", "", "evt 1"]) {
      expect(() => signWebhook({ secret, key, id, at: new Date(), body })).toThrow(/not a plain token/);
    }
  });

  it("writes a published key as whpk_ + base64 of its 32 raw bytes", () => {
    const jwk = publicKey.export({ format: "jwk" });
    const w = whpk(jwk.x!);
    expect(w).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    const raw = Buffer.from(w.slice(5), "base64");
    expect(raw).toHaveLength(32);
    const back = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
    expect(back.export({ format: "der", type: "spki" })).toEqual(publicKey.export({ format: "der", type: "spki" }));
  });
});
