import { createHash } from "node:crypto";
import { canonicalize } from "json-canonicalize";
import { keyring, signBytes, verifyBytes, type SigningKey } from "./keys";

/** RFC 8785 (JCS) canonical JSON. */
export const canonicalJson = (value: unknown): string => canonicalize(value);

export const sha256Hex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Sign the canonical JSON of `value`: what anyone can check with the JWKS and an RFC 8785 library. */
export function signJson(value: unknown, key: SigningKey = keyring().active) {
  const canonical = canonicalJson(value);
  const bytes = new TextEncoder().encode(canonical);
  const { kid, signature } = signBytes(bytes, key);
  return { kid, signature, payloadSha256: sha256Hex(bytes) };
}

export function verifyJson(kid: string, value: unknown, signature: string): boolean {
  return verifyBytes(kid, new TextEncoder().encode(canonicalJson(value)), signature);
}

/**
 * A public answer signed as the signed status is (CONTRACT "Signed status"): `fields` and
 * `signing_key_id`, canonicalised (RFC 8785) and signed with the active key, the signature
 * added as `signatureField`. To verify, drop that field and check the rest.
 */
export function signedAnswer(fields: Record<string, unknown>, signatureField: string, key: SigningKey = keyring().active): string {
  const { kid, signature } = signJson({ ...fields, signing_key_id: key.kid }, key);
  return JSON.stringify({ ...fields, signing_key_id: kid, [signatureField]: signature });
}
