import { createPrivateKey, generateKeyPairSync, randomUUID, sign as nodeSign } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import canonicalize from "canonicalize";
import { compactVerify, CompactSign, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import { admin, call, newAccount, newLiveAccount } from "../helpers";

const b64u = (b: Uint8Array) => Buffer.from(b).toString("base64url");
const uniqueId = (tag = "k") => `${tag}-${randomUUID()}`;

/** A key pair made by OpenSSL (node:crypto); the service only ever sees `x`. */
function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = privateKey.export({ format: "jwk" }) as { x: string; d: string };
  return { privateKey, publicKey, x: jwk.x, d: jwk.d };
}

async function register(key: string, keyId = uniqueId(), publicKey = keyPair().x) {
  const r = await call("POST", "/api/v1/mandate-keys", { key, body: { key_id: keyId, public_key: publicKey } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** The public read-back of an account's key (issue 29: key ids are unique per account only). */
const readBack = (accountId: string, keyId: string) => call("GET", `/keys/${encodeURIComponent(accountId)}/${encodeURIComponent(keyId)}`);

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("mandate keys: register, list, revoke, read back", () => {
  it("registers a key, lists it, reads it back publicly, revokes it (idempotently)", async () => {
    const { sandboxKey, accountId } = await newAccount("mk");
    const kp = keyPair();
    const keyId = uniqueId("acme.treasury:2026");
    const created = await call("POST", "/api/v1/mandate-keys", { key: sandboxKey, body: { key_id: keyId, public_key: kp.x } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      object: "mandate_key", key_id: keyId, algorithm: "Ed25519", public_key: kp.x, environment: "sandbox",
      status: "active", created_at: expect.stringMatching(TIMESTAMP), revoked_at: null,
    });
    expect(created.headers.get("access-control-allow-origin")).toBeNull();

    const list = await call("GET", "/api/v1/mandate-keys", { key: sandboxKey });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ object: "list", data: [created.body], has_more: false });

    const pub = await readBack(accountId, keyId);
    expect(pub.status).toBe(200);
    expect(pub.body).toEqual({
      ...created.body,
      account_id: accountId,
      // The owner, as every public answer names an account: this one set no name and is no verified organisation.
      account: { name: null, name_verified: false, organisation: null, verified_domains: [] },
      jwk: { kty: "OKP", crv: "Ed25519", x: kp.x, kid: keyId, alg: "EdDSA", use: "sig" },
    });
    expect(pub.headers.get("access-control-allow-origin")).toBe("*");
    expect(pub.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");

    // The specification's address by key id alone: one account holds this id, so it is that key, its owner named.
    const bare = await call("GET", `/keys/${encodeURIComponent(keyId)}`);
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toEqual(pub.body);
    expect(bare.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    const unknown = await call("GET", `/keys/nobody-${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ type: "not_found", code: "mandate_key_not_found", param: "key_id" });
    const own = await call("GET", `/keys/${encodeURIComponent(keyId)}`, { key: sandboxKey });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toEqual(pub.body);
    expect(own.headers.get("cache-control")).toBe("private, no-store");

    const revoked = await call("DELETE", `/api/v1/mandate-keys/${encodeURIComponent(keyId)}`, { key: sandboxKey });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ key_id: keyId, status: "revoked", revoked_at: expect.stringMatching(TIMESTAMP) });
    expect(Date.parse(revoked.body.revoked_at)).toBeGreaterThanOrEqual(Date.parse(created.body.created_at));

    // Again: the same answer, the first revocation time kept.
    const again = await call("DELETE", `/api/v1/mandate-keys/${encodeURIComponent(keyId)}`, { key: sandboxKey });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);

    // Still published, as revoked; still listed.
    const after = await readBack(accountId, keyId);
    expect(after.body).toMatchObject({ status: "revoked", revoked_at: revoked.body.revoked_at, public_key: kp.x });
    expect((await call("GET", "/api/v1/mandate-keys", { key: sandboxKey })).body.data).toEqual([revoked.body]);
  });

  it("the published key verifies a signature made by the holder of the private key (jose, independent of the service)", async () => {
    const { sandboxKey, accountId } = await newAccount("mk-sig");
    // Generated with @noble/curves; the mandate is signed with node:crypto (OpenSSL) from the same seed.
    const seed = ed25519.utils.randomSecretKey();
    const x = b64u(ed25519.getPublicKey(seed));
    const keyId = uniqueId("sig");
    await register(sandboxKey, keyId, x);

    const mandate = { account_id: accountId, agent_id: "agent-7", act: "pay_invoice", mandate_hash: "sha256:" + "ab".repeat(32) };
    const message = new TextEncoder().encode(canonicalize(mandate)!);
    const nodeKey = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d: b64u(seed), x }, format: "jwk" });
    const signature = nodeSign(null, message, nodeKey);

    const pub = await readBack(accountId, keyId);
    expect(pub.status).toBe(200);
    const key = await importJWK(pub.body.jwk, "EdDSA");
    expect(await crypto.subtle.verify("Ed25519", key as CryptoKey, signature, message)).toBe(true);
    // A JWS over the same bytes verifies with jose against the published JWK; a tampered message does not.
    const jws = await new CompactSign(message).setProtectedHeader({ alg: "EdDSA", kid: keyId }).sign(nodeKey);
    const verified = await compactVerify(jws, key);
    expect(Buffer.from(verified.payload).equals(Buffer.from(message))).toBe(true);
    const tampered = new TextEncoder().encode(canonicalize({ ...mandate, act: "drain_account" })!);
    expect(await crypto.subtle.verify("Ed25519", key as CryptoKey, signature, tampered)).toBe(false);
    expect(ed25519.verify(signature, message, Buffer.from(pub.body.public_key, "base64url"))).toBe(true);
  });

  it("a key_id is unique within its account: 409 for the same account (revoked keys included), another account registers its own", async () => {
    const a = await newAccount("mk-a");
    const b = await newAccount("mk-b");
    const keyId = uniqueId("taken");
    const aKey = await register(a.sandboxKey, keyId);
    const again = await call("POST", "/api/v1/mandate-keys", { key: a.sandboxKey, body: { key_id: keyId, public_key: keyPair().x } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ type: "conflict", code: "mandate_key_exists", param: "key_id" });
    // Another account: its own key of the same id, which changes nothing of A's.
    const bKey = await register(b.sandboxKey, keyId);
    expect(bKey.public_key).not.toBe(aKey.public_key);
    expect((await readBack(a.accountId, keyId)).body).toMatchObject({ account_id: a.accountId, public_key: aKey.public_key, status: "active" });
    expect((await readBack(b.accountId, keyId)).body).toMatchObject({ account_id: b.accountId, public_key: bKey.public_key, status: "active" });
    await call("DELETE", `/api/v1/mandate-keys/${keyId}`, { key: a.sandboxKey });
    const afterRevoke = await call("POST", "/api/v1/mandate-keys", { key: a.sandboxKey, body: { key_id: keyId, public_key: keyPair().x } });
    expect(afterRevoke.status).toBe(409);
    expect((await readBack(b.accountId, keyId)).body.status).toBe("active");
    // Exact match: another case is another id.
    const upper = await call("POST", "/api/v1/mandate-keys", { key: b.sandboxKey, body: { key_id: keyId.toUpperCase(), public_key: keyPair().x } });
    expect(upper.status).toBe(201);
    // B's list holds only B's keys.
    expect((await call("GET", "/api/v1/mandate-keys", { key: b.sandboxKey })).body.data.map((k: any) => k.key_id)).toEqual([keyId, keyId.toUpperCase()]);
  });

  // PostgreSQL only: on PGlite the server's one connection runs the six inserts one after
  // another, which is the sequential 409 for a taken key_id tested above.
  it.skipIf(!process.env.DATABASE_URL)("concurrent registrations of one key_id: exactly one wins per account", async () => {
    const accounts = await Promise.all([newAccount("mk-c1"), newAccount("mk-c2"), newAccount("mk-c3")]);
    const keyId = uniqueId("race");
    const results = await Promise.all(
      accounts.flatMap((a) => [0, 1].map(() => call("POST", "/api/v1/mandate-keys", { key: a.sandboxKey, body: { key_id: keyId, public_key: keyPair().x } }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
  });

  it("another account's key is 404 to DELETE and stays active; unknown and malformed ids are 404", async () => {
    const a = await newAccount("mk-own");
    const b = await newAccount("mk-other");
    const k = await register(a.sandboxKey);
    const r = await call("DELETE", `/api/v1/mandate-keys/${k.key_id}`, { key: b.sandboxKey });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ type: "not_found", code: "mandate_key_not_found" });
    expect((await readBack(a.accountId, k.key_id)).body.status).toBe("active");
    expect((await call("GET", "/api/v1/mandate-keys", { key: b.sandboxKey })).body.data).toEqual([]);
    for (const id of [uniqueId("nobody"), "x", "a".repeat(101), "%2E%2E%2Fetc"]) {
      const d = await call("DELETE", `/api/v1/mandate-keys/${id}`, { key: a.sandboxKey });
      expect(d.status, id).toBe(404);
      expect(d.body.error.code).toBe("mandate_key_not_found");
    }
  });

  it("environments are separate: each API lists and revokes its own environment's keys, and only those", async () => {
    const acct = await newLiveAccount("starter");
    const sandbox = await register(acct.sandboxKey);
    const live = await register(acct.liveKey);
    expect(sandbox.environment).toBe("sandbox");
    expect(live.environment).toBe("live");
    expect((await call("GET", "/api/v1/mandate-keys", { key: acct.liveKey })).body.data.map((k: any) => k.key_id)).toEqual([live.key_id]);
    expect((await call("GET", "/api/v1/mandate-keys", { key: acct.sandboxKey })).body.data.map((k: any) => k.key_id)).toEqual([sandbox.key_id]);
    // Neither API reaches the other environment's key: 404, and that key stays active.
    expect((await call("DELETE", `/api/v1/mandate-keys/${sandbox.key_id}`, { key: acct.liveKey })).status).toBe(404);
    expect((await readBack(acct.accountId, sandbox.key_id)).body).toMatchObject({ environment: "sandbox", status: "active" });
    expect((await call("DELETE", `/api/v1/mandate-keys/${live.key_id}`, { key: acct.sandboxKey })).status).toBe(404);
    expect((await readBack(acct.accountId, live.key_id)).body).toMatchObject({ environment: "live", status: "active" });
    // The live API revokes its live key (the reported "live API cannot revoke" was about a sandbox key signing live mandates: refused now).
    const liveRevoke = await call("DELETE", `/api/v1/mandate-keys/${encodeURIComponent(live.key_id)}`, { key: acct.liveKey });
    expect(liveRevoke.status, liveRevoke.text).toBe(200);
    expect(liveRevoke.body).toMatchObject({ key_id: live.key_id, environment: "live", status: "revoked" });
    expect((await call("GET", "/api/v1/mandate-keys", { key: acct.liveKey })).body.data).toEqual([liveRevoke.body]);
    expect((await readBack(acct.accountId, live.key_id)).body).toMatchObject({ environment: "live", status: "revoked" });
    expect((await readBack(acct.accountId, sandbox.key_id)).body).toMatchObject({ environment: "sandbox", status: "active" });
  });

  it("a mandate verifies only with a mandate key of its own environment: a sandbox key is refused for a live mandate, and a live key for a sandbox one", async () => {
    const acct = await newLiveAccount("starter");
    const accountId = acct.accountId;
    const seedOf = () => ed25519.utils.randomSecretKey();
    const sandboxSeed = seedOf();
    const liveSeed = seedOf();
    const sandboxKey = await register(acct.sandboxKey, uniqueId("env-sbx"), b64u(ed25519.getPublicKey(sandboxSeed)));
    const liveKey = await register(acct.liveKey, uniqueId("env-live"), b64u(ed25519.getPublicKey(liveSeed)));
    const agent = (apiKey: string, key: { key_id: string }, seed: Uint8Array) => {
      const mandate = { agent_id: `agent-${randomUUID().slice(0, 6)}`, act: "pay_invoices", mandate_hash: `sha256:${"cd".repeat(32)}` };
      const signature = b64u(ed25519.sign(new TextEncoder().encode(canonicalize({ account_id: accountId, ...mandate })!), seed));
      return call("POST", "/api/v1/records", {
        key: apiKey,
        body: {
          subject: mandate.agent_id, claim_type: "agent_authorization", claim: "May pay invoices.", principal: "Acme Trading Ltd",
          ...mandate, mandate_signature: signature, principal_key_id: key.key_id,
        },
      });
    };
    const liveWithSandbox = await agent(acct.liveKey, sandboxKey, sandboxSeed);
    expect(liveWithSandbox.status, liveWithSandbox.text).toBe(422);
    expect(liveWithSandbox.body.error).toMatchObject({ code: "mandate_key_invalid", param: "principal_key_id" });
    expect(liveWithSandbox.body.error.message).toMatch(/is a sandbox key; a live mandate verifies only with a live mandate key/);
    const sandboxWithLive = await agent(acct.sandboxKey, liveKey, liveSeed);
    expect(sandboxWithLive.status, sandboxWithLive.text).toBe(422);
    expect(sandboxWithLive.body.error).toMatchObject({ code: "mandate_key_invalid", param: "principal_key_id" });
    expect(sandboxWithLive.body.error.message).toMatch(/is a live key; a sandbox mandate verifies only with a sandbox mandate key/);
    // Each environment's own key signs its own mandates.
    for (const [apiKey, key, seed, env] of [[acct.liveKey, liveKey, liveSeed, "live"], [acct.sandboxKey, sandboxKey, sandboxSeed, "sandbox"]] as const) {
      const ok = await agent(apiKey, key, seed);
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body).toMatchObject({ environment: env, evidence_level: "source_verified", agent: { key: { key_id: key.key_id, status: "active", environment: env } } });
    }
  });

  it("the public read-back: unknown ids and accounts are a JSON 404 with CORS; preflight is answered; other methods are 405", async () => {
    const { accountId, sandboxKey } = await newAccount("mk-404");
    const k = await register(sandboxKey);
    const paths = [
      ...[uniqueId("unknown"), "no", "has space"].flatMap((id) => [`/keys/${encodeURIComponent(id)}`, `/keys/${accountId}/${encodeURIComponent(id)}`]),
      `/keys/acct_nosuchaccount/${k.key_id}`, `/keys/not-an-account/${k.key_id}`, `/keys/${"acct_" + "x".repeat(200)}/${k.key_id}`,
    ];
    for (const id of paths) {
      const r = await call("GET", id);
      expect(r.status, id).toBe(404);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.body.error).toMatchObject({ type: "not_found", code: "mandate_key_not_found" });
    }
    for (const p of [`/keys/${uniqueId()}`, `/keys/${accountId}/${uniqueId()}`]) {
      const pre = await call("OPTIONS", p);
      expect(pre.status).toBe(204);
      expect(pre.headers.get("access-control-allow-origin")).toBe("*");
      const del = await call("DELETE", p);
      expect(del.status).toBe(405);
      expect(del.headers.get("allow")).toBe("GET");
    }
    // A bad API key on the former address is the usual 401, never another account's key.
    expect((await call("GET", `/keys/${k.key_id}`, { key: "prs_sandbox_" + "x".repeat(32) })).status).toBe(401);
  });
});

describe("mandate keys: refused input", () => {
  const post = async (key: string | undefined, body: unknown) => call("POST", "/api/v1/mandate-keys", { key, body });

  it("no API key → 401; a revoked API key → 401", async () => {
    const r = await post(undefined, { key_id: uniqueId(), public_key: keyPair().x });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ type: "authentication_error", code: "missing_api_key" });
    expect((await call("GET", "/api/v1/mandate-keys")).status).toBe(401);
    expect((await call("DELETE", `/api/v1/mandate-keys/${uniqueId()}`)).status).toBe(401);
    const a = await newAccount("mk-401");
    const extra = await admin("key", "create", "--account", a.accountId, "--env", "sandbox");
    await admin("key", "revoke", "--key", extra.key_id);
    expect((await post(extra.key, { key_id: uniqueId(), public_key: keyPair().x })).body.error.code).toBe("api_key_revoked");
  });

  it("bad public keys → 422 invalid_public_key on public_key, nothing registered", async () => {
    const { sandboxKey, accountId } = await newAccount("mk-bad");
    const kp = keyPair();
    const raw = Buffer.from(kp.x, "base64url");
    const notOnCurve = Buffer.alloc(32);
    notOnCurve[0] = 2;
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const cases: [string, string][] = [
      ["31 bytes", b64u(raw.subarray(0, 31))],
      ["33 bytes", b64u(Buffer.concat([raw, Buffer.from([7])]))],
      ["not base64url", "this is not base64url!!"],
      ["standard base64 with padding", raw.toString("base64")],
      ["hex", raw.toString("hex")],
      ["not on the curve", b64u(notOnCurve)],
      ["small order (identity)", b64u(identity)],
      ["DER SubjectPublicKeyInfo", b64u(kp.publicKey.export({ format: "der", type: "spki" }))],
    ];
    for (const [what, publicKey] of cases) {
      const keyId = uniqueId("bad");
      const r = await post(sandboxKey, { key_id: keyId, public_key: publicKey });
      expect(r.status, what).toBe(422);
      expect(r.body.error, what).toMatchObject({ type: "invalid_request_error", code: "invalid_public_key", param: "public_key" });
      expect((await readBack(accountId, keyId)).status, what).toBe(404);
    }
    expect((await call("GET", "/api/v1/mandate-keys", { key: sandboxKey })).body.data).toEqual([]);
  });

  it("private key material → 422 private_key_not_accepted, never stored or echoed", async () => {
    const { sandboxKey, accountId } = await newAccount("mk-priv");
    const kp = keyPair();
    const seedAndPublic = b64u(Buffer.concat([Buffer.from(kp.d, "base64url"), Buffer.from(kp.x, "base64url")]));
    const pem = String(kp.privateKey.export({ format: "pem", type: "pkcs8" }));
    const cases: [string, Record<string, unknown>, string][] = [
      ["64-byte secret key", { public_key: seedAndPublic }, "public_key"],
      ["PKCS#8 DER", { public_key: b64u(kp.privateKey.export({ format: "der", type: "pkcs8" })) }, "public_key"],
      ["PEM private key", { public_key: pem }, "public_key"],
      ["a d field", { public_key: kp.x, d: kp.d }, "d"],
      ["a private_key field", { public_key: kp.x, private_key: kp.d }, "private_key"],
      ["a private JWK as public_key", { public_key: { kty: "OKP", crv: "Ed25519", x: kp.x, d: kp.d } }, "public_key.d"],
    ];
    for (const [what, body, param] of cases) {
      const keyId = uniqueId("priv");
      const r = await post(sandboxKey, { key_id: keyId, ...body });
      expect(r.status, what).toBe(422);
      expect(r.body.error, what).toMatchObject({ code: "private_key_not_accepted", param });
      expect(r.body.error.message, what).toMatch(/Never send a private key/);
      expect(r.text, what).not.toContain(kp.d);
      expect((await readBack(accountId, keyId)).status, what).toBe(404);
    }
    expect((await call("GET", "/api/v1/mandate-keys", { key: sandboxKey })).body.data).toEqual([]);
  });

  it("the principal is the API key's account: account_id in the body is refused; other field errors name the field", async () => {
    const a = await newAccount("mk-principal");
    const b = await newAccount("mk-victim");
    const keyId = uniqueId("principal");
    const r = await post(a.sandboxKey, { key_id: keyId, public_key: keyPair().x, account_id: b.accountId });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: "field_not_allowed", param: "account_id" });
    expect((await readBack(a.accountId, keyId)).status).toBe(404);
    expect((await readBack(b.accountId, keyId)).status).toBe(404);

    const err = async (body: unknown) => (await post(a.sandboxKey, body)).body.error;
    expect(await err({ public_key: keyPair().x })).toMatchObject({ code: "missing_field", param: "key_id" });
    expect(await err({ key_id: uniqueId() })).toMatchObject({ code: "missing_field", param: "public_key" });
    expect(await err({ key_id: "ab", public_key: keyPair().x })).toMatchObject({ code: "too_short", param: "key_id" });
    expect(await err({ key_id: "k".repeat(101), public_key: keyPair().x })).toMatchObject({ code: "too_long", param: "key_id" });
    expect(await err({ key_id: "has space", public_key: keyPair().x })).toMatchObject({ code: "invalid_format", param: "key_id" });
    expect(await err({ key_id: "-leading", public_key: keyPair().x })).toMatchObject({ code: "invalid_format", param: "key_id" });
    expect(await err({ key_id: "a/b/c", public_key: keyPair().x })).toMatchObject({ code: "invalid_format", param: "key_id" });
    expect(await err({ key_id: 12345, public_key: keyPair().x })).toMatchObject({ code: "invalid_type", param: "key_id" });
    expect(await err({ key_id: uniqueId(), public_key: keyPair().x, algorithm: "RS256" })).toMatchObject({ code: "unknown_field", param: "algorithm" });
    const notJson = await call("POST", "/api/v1/mandate-keys", { key: a.sandboxKey, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("invalid_json");
    // The longest allowed id, with every allowed character, and a shortest one (which a
    // re-run on the same database may find taken: still not a validation error).
    const longest = `Ab9._:-${randomUUID()}`.padEnd(100, "z");
    expect((await post(a.sandboxKey, { key_id: longest, public_key: keyPair().x })).status).toBe(201);
    expect((await readBack(a.accountId, longest)).body.key_id).toBe(longest);
    const shortest = await post(a.sandboxKey, { key_id: `k${randomUUID().slice(0, 2)}`, public_key: keyPair().x });
    expect(shortest.status === 201 || shortest.body.error?.code === "mandate_key_exists", shortest.text).toBe(true);
  });
});
