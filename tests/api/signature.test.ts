import canonicalize from "canonicalize";
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { call, issue, newAccount } from "../helpers";
import { withServerDb } from "../server-db";
import { canonicalSha256, verifyWithJwks } from "../signatures";

/**
 * GET /api/v1/records/{id}/signature re-verifies what is stored. A record changed in the
 * database behind the service's back — its signed payload, its payload hash, its signature —
 * must read `valid: false`, and an independent check (jose + canonicalize + WebCrypto against
 * the JWKS) agrees with each answer.
 */
async function issued() {
  const { sandboxKey } = await newAccount("sig");
  const rec = await issue(sandboxKey, { subject: "Genuine Trading Ltd", claim: "Genuine Trading Ltd is an active company." });
  const check = await call("GET", `/api/v1/records/${rec.verification_id}/signature`);
  expect(check.status).toBe(200);
  expect(check.body.valid).toBe(true);
  expect(await verifyWithJwks(check.body.signed_payload, check.body.signature, check.body.signing_key_id)).toBe(true);
  return { id: rec.verification_id as string, payload: check.body.signed_payload as Record<string, unknown>, signature: rec.integrity.signature as string };
}

async function recheck(id: string) {
  const r = await call("GET", `/api/v1/records/${id}/signature`);
  expect(r.status).toBe(200);
  expect(r.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
  const independent = await verifyWithJwks(r.body.signed_payload, r.body.signature, r.body.signing_key_id);
  const hashMatches = canonicalSha256(r.body.signed_payload) === r.body.payload_sha256;
  return { body: r.body, independent, hashMatches };
}

describe("GET /api/v1/records/{id}/signature on a record tampered with in the database", () => {
  it("a changed signed payload (hash left as it was) → valid: false", async () => {
    const { id } = await issued();
    await withServerDb((sql) => sql`
      update records set signed_payload = jsonb_set(signed_payload, '{subject}', to_jsonb('Forged Holdings Ltd'::text)) where id = ${id}`);
    const r = await recheck(id);
    expect(r.body.signed_payload.subject).toBe("Forged Holdings Ltd"); // the stored payload is what was checked
    expect(r.hashMatches).toBe(false);
    expect(r.independent).toBe(false);
    expect(r.body.valid).toBe(false);
  });

  it("a changed signed payload with a recomputed payload_sha256 → valid: false (the signature check alone catches it)", async () => {
    const { id, payload } = await issued();
    const forged = { ...payload, claim: "Genuine Trading Ltd is a licensed bank." };
    await withServerDb((sql) => sql`
      update records set signed_payload = ${sql.json(forged as never)}, payload_sha256 = ${canonicalSha256(forged)} where id = ${id}`);
    const r = await recheck(id);
    expect(r.body.signed_payload).toEqual(forged);
    expect(r.hashMatches).toBe(true);
    expect(r.independent).toBe(false);
    expect(r.body.valid).toBe(false);
  });

  it("a replaced signature → valid: false, whether it is garbage or a real signature by another key", async () => {
    const { id, payload, signature } = await issued();
    const flipped = Buffer.from(signature, "base64url");
    flipped[5]! ^= 0x01;
    const other = generateKeyPairSync("ed25519").privateKey;
    const foreign = sign(null, Buffer.from(canonicalize(payload)!), other).toString("base64url");
    for (const replaced of [flipped.toString("base64url"), foreign]) {
      await withServerDb((sql) => sql`update records set signature = ${replaced} where id = ${id}`);
      const r = await recheck(id);
      expect(r.body.signature).toBe(replaced);
      expect(r.body.signed_payload).toEqual(payload);
      expect(r.hashMatches).toBe(true);
      expect(r.independent).toBe(false);
      expect(r.body.valid).toBe(false);
    }
    // Put back, it verifies again: the answer follows what is stored, nothing is cached.
    await withServerDb((sql) => sql`update records set signature = ${signature} where id = ${id}`);
    const restored = await recheck(id);
    expect(restored.independent).toBe(true);
    expect(restored.body.valid).toBe(true);
  });
});
