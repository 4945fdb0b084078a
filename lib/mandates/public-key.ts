import type { FieldError } from "@/lib/http/errors";
import { checkEd25519PublicKey } from "@/lib/signing/ed25519-strict";

/**
 * Read a mandate public key: base64url (no padding) of the 32 raw Ed25519 bytes, a
 * canonical encoding of a point of the prime-order subgroup. Whatever looks like private
 * key material is refused with its own code, so a client that sends it learns at once —
 * and nothing of it is stored or echoed.
 */

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** DER prefixes of Ed25519 keys (RFC 8410): PKCS#8 private key, SubjectPublicKeyInfo. */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

const PARAM = "public_key";

export const PRIVATE_KEY_MESSAGE =
  "Never send a private key: register only the public half. Nothing was stored; the service never needs your signing key. " +
  "If that private key was sent by mistake, treat it as exposed and generate a new key pair.";

const invalid = (message: string): FieldError => ({ code: "invalid_public_key", param: PARAM, message });
const privateKey = (what: string, param = PARAM): FieldError => ({
  code: "private_key_not_accepted", param, message: `${what} ${PRIVATE_KEY_MESSAGE}`,
});

/** Body fields that only private key material would fill. */
export const PRIVATE_KEY_FIELDS = ["d", "private_key", "privateKey", "secret_key", "secretKey", "seed", "secret", "private"] as const;

export function findPrivateKeyField(body: Record<string, unknown>): FieldError | null {
  for (const f of PRIVATE_KEY_FIELDS) {
    if (Object.prototype.hasOwnProperty.call(body, f)) return privateKey(`'${f}' looks like private key material.`, f);
  }
  const pk = body.public_key;
  if (pk && typeof pk === "object" && !Array.isArray(pk) && Object.prototype.hasOwnProperty.call(pk, "d")) {
    return privateKey("'public_key' is a private JWK (it has 'd').", "public_key.d");
  }
  return null;
}

export type ParsedPublicKey = { ok: true; bytes: Uint8Array; base64url: string } | { ok: false; error: FieldError };

export function parseMandatePublicKey(value: string): ParsedPublicKey {
  const fail = (error: FieldError) => ({ ok: false as const, error });
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(value)) return fail(privateKey("'public_key' is a PEM private key."));
  if (value.includes("-----BEGIN")) {
    return fail(invalid("'public_key' must be the base64url of the 32 raw key bytes, not PEM. Take the last 32 bytes of the DER public key."));
  }
  if (/^[0-9a-fA-F]{128}$/.test(value)) return fail(privateKey("'public_key' is 64 bytes in hex: an Ed25519 private key (seed and public key)."));
  if (/^[0-9a-fA-F]{64}$/.test(value)) {
    return fail(invalid("'public_key' looks like hex; send the same 32 bytes as base64url without padding (43 characters)."));
  }
  if (!BASE64URL.test(value)) {
    return fail(invalid("'public_key' must be base64url without padding (A-Z, a-z, 0-9, '-', '_'; no '+', '/' or '=')."));
  }
  const bytes = Buffer.from(value, "base64url");
  // Buffer ignores stray trailing bits; only the one canonical spelling of the bytes is accepted.
  if (bytes.toString("base64url") !== value) return fail(invalid("'public_key' is not valid base64url."));
  if (bytes.length === 64) {
    return fail(privateKey("'public_key' is 64 bytes: that is an Ed25519 private key (seed and public key), not a public key."));
  }
  if (bytes.length === 48 && bytes.subarray(0, PKCS8_PREFIX.length).equals(PKCS8_PREFIX)) {
    return fail(privateKey("'public_key' is a DER (PKCS#8) private key."));
  }
  if (bytes.length === 44 && bytes.subarray(0, SPKI_PREFIX.length).equals(SPKI_PREFIX)) {
    return fail(invalid("'public_key' is a DER SubjectPublicKeyInfo; send only its last 32 bytes (the raw key), base64url."));
  }
  if (bytes.length !== 32) return fail(invalid(`'public_key' must decode to exactly 32 bytes; it decodes to ${bytes.length}.`));
  const key = checkEd25519PublicKey(new Uint8Array(bytes));
  if (!key.ok) {
    const what = { not_a_point: "not an Ed25519 public key: the bytes are not a point on the curve", small_order: "a weak Ed25519 key (a point of small order)", mixed_order: "not in Ed25519's prime-order subgroup" }[key.reason];
    return fail(invalid(`'public_key' is ${what}.`));
  }
  return { ok: true, bytes: new Uint8Array(bytes), base64url: value };
}
