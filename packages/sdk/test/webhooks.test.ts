// verifyWebhook: deliveries signed by an independent signer (the standardwebhooks library
// for v1, node:crypto Ed25519 for v1a against a test JWKS), and a real delivery of the server.
import { generateKeyPairSync, sign } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, newAccount } from "../../../tests/helpers";
import { startReceiver, waitFor } from "../../../tests/webhook-receiver";
import { PrsClient, verifyWebhook, WebhookVerificationError, type Jwks } from "../src/index.js";

const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const jwks: Jwks = { keys: [{ ...(publicKey.export({ format: "jwk" }) as { kty: "OKP"; crv: "Ed25519"; x: string }), kid: "test-key-1", use: "sig", alg: "EdDSA" }] };
const event = { id: "evt_test0000000000000000001", type: "record.issued", created_at: "2026-11-24T04:16:24.567Z", environment: "sandbox", data: { record: { verification_id: "PRS-AAAAAAAAAAAAAAAAAAAA" } } };
const raw = JSON.stringify(event);

/** A delivery as the service sends it: v1 by standardwebhooks, v1a by node:crypto, over the same content. */
function deliver(body = raw, at = new Date(), kid = "test-key-1") {
  const id = event.id;
  const ts = String(Math.floor(at.getTime() / 1000));
  const v1 = new Webhook(secret).sign(id, at, body);
  const v1a = `v1a,${sign(null, Buffer.from(`${id}.${ts}.${body}`), privateKey).toString("base64")}`;
  return { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": `${v1} ${v1a}`, "webhook-key-id": kid, "content-type": "application/json" };
}
const failure = (p: Promise<unknown>) => p.then(() => "verified", (e: unknown) => (e instanceof WebhookVerificationError ? e.code : `other: ${String(e)}`));

describe("verifyWebhook", () => {
  it("v1 (secret) and v1a (JWKS) each verify a delivery, and both together", async () => {
    const h = deliver();
    expect(await verifyWebhook(raw, h, { secret })).toEqual(event);
    expect(await verifyWebhook(raw, h, { jwks })).toEqual(event);
    expect(await verifyWebhook(Buffer.from(raw), new Headers(h), { secret, jwks })).toEqual(event);
  });

  it("a changed body, id or timestamp fails either way", async () => {
    const h = deliver();
    const changed = raw.replace("AAAA", "AAAB");
    for (const keys of [{ secret }, { jwks }]) {
      expect(await failure(verifyWebhook(changed, h, keys))).toBe("no_matching_signature");
      expect(await failure(verifyWebhook(raw, { ...h, "webhook-id": "evt_other" }, keys))).toBe("no_matching_signature");
      expect(await failure(verifyWebhook(raw, { ...h, "webhook-timestamp": String(Number(h["webhook-timestamp"]) - 1) }, keys))).toBe("no_matching_signature");
    }
  });

  it("another secret, an unknown key id, or only the other kind of signature fails", async () => {
    const h = deliver();
    const [v1, v1a] = h["webhook-signature"].split(" ");
    expect(await failure(verifyWebhook(raw, h, { secret: `whsec_${Buffer.from("another secret, 32 bytes long!!!").toString("base64")}` }))).toBe("no_matching_signature");
    expect(await failure(verifyWebhook(raw, { ...h, "webhook-key-id": "nope" }, { jwks }))).toBe("unknown_key");
    expect(await failure(verifyWebhook(raw, { ...h, "webhook-signature": v1a! }, { secret }))).toBe("no_matching_signature");
    expect(await failure(verifyWebhook(raw, { ...h, "webhook-signature": v1! }, { jwks }))).toBe("no_matching_signature");
    expect(await failure(verifyWebhook(raw, { ...h, "webhook-signature": v1! }, { secret, jwks }))).toBe("no_matching_signature");
  });

  it("timestamps outside the tolerance fail; the tolerance can be set", async () => {
    const old = deliver(raw, new Date(Date.now() - 10 * 60_000));
    expect(await failure(verifyWebhook(raw, old, { secret }))).toBe("timestamp_too_old");
    expect(await failure(verifyWebhook(raw, deliver(raw, new Date(Date.now() + 10 * 60_000)), { jwks }))).toBe("timestamp_too_new");
    expect(await verifyWebhook(raw, old, { secret }, { toleranceSeconds: 900 })).toEqual(event);
    expect(await failure(verifyWebhook(raw, { ...deliver(), "webhook-timestamp": "12abc" }, { secret }))).toBe("invalid_timestamp");
    const { "webhook-signature": _, ...unsigned } = deliver();
    expect(await failure(verifyWebhook(raw, unsigned, { secret }))).toBe("missing_headers");
  });

  it("a small-order key in the JWKS is refused, even with a signature that would pass a lenient verifier", async () => {
    // The identity point (order 1): R = identity, S = 0 satisfies [S]B = R + [k]A for every message.
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const weak: Jwks = { keys: [{ kty: "OKP", crv: "Ed25519", x: identity.toString("base64url"), kid: "weak", use: "sig", alg: "EdDSA" }] };
    const forged = Buffer.concat([identity, Buffer.alloc(32)]).toString("base64");
    const h = { ...deliver(), "webhook-key-id": "weak", "webhook-signature": `v1a,${forged}` };
    expect(await failure(verifyWebhook(raw, h, { jwks: weak }))).toBe("unusable_key");
  });
});

describe("a delivery from the server", () => {
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx.close();
  });

  it("verifies with the endpoint's secret and with the service's JWKS", async () => {
    const { sandboxKey } = await newAccount("sdk-hook");
    const prs = new PrsClient({ baseUrl: baseUrl(), apiKey: sandboxKey });
    const ep = rx.endpoint("sdk");
    const hook = await prs.webhooks.create({ url: ep.url, events: ["record.issued"] });
    const secret = hook.secret!;
    ep.setSecret(secret);
    const rec = await prs.records.create({ subject: "Hooked Ltd", claim_type: "company_status", claim: "Hooked Ltd is an active company." });
    const got = await waitFor(() => ep.received()[0]);
    const headers = got.headers as Record<string, string>;
    const bySecret = await verifyWebhook(got.raw, headers, { secret });
    expect(bySecret).toMatchObject({ type: "record.issued", data: { record: { verification_id: rec.verification_id } } });
    expect(await verifyWebhook(got.raw, headers, { jwks: await prs.jwks() })).toEqual(bySecret);
    expect(await failure(verifyWebhook(got.raw.replace("Hooked", "Hacked"), headers, { jwks: await prs.jwks() }))).toBe("no_matching_signature");
    const deliveries = await prs.webhooks.deliveries(hook.id);
    expect(deliveries.data[0]).toMatchObject({ event_id: got.id });
  });
});
