// The service's published keys (/.well-known/jwks.json) and its signed JSON answers:
// Ed25519 over the RFC 8785 canonical JSON of the answer without its signature field.
import { canonicalize } from "json-canonicalize";
import { fromBase64Url, utf8 } from "./bytes.js";
import { publicKeyProblem, verifyStrict } from "./ed25519.js";

/**
 * The Ed25519 public key with this kid, or why there is none usable.
 * @param {unknown} jwks @param {unknown} kid
 * @returns {{ ok: true, publicKey: Uint8Array } | { ok: false, error: string }}
 */
export function jwksKey(jwks, kid) {
  const keys = /** @type {{ keys?: unknown }} */ (jwks ?? {}).keys;
  if (!Array.isArray(keys)) return { ok: false, error: "the JWKS has no \"keys\" array" };
  if (typeof kid !== "string" || kid.length === 0) return { ok: false, error: "the answer names no signing_key_id" };
  const found = keys.filter((k) => k && typeof k === "object" && k.kid === kid);
  if (found.length === 0) return { ok: false, error: `no key with kid ${JSON.stringify(kid)} in the JWKS (${keys.length} keys)` };
  if (found.length > 1) return { ok: false, error: `the JWKS has ${found.length} keys with kid ${JSON.stringify(kid)}` };
  const jwk = found[0];
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519") return { ok: false, error: `key ${kid} is ${jwk.kty}/${jwk.crv}, not OKP/Ed25519` };
  if (jwk.alg !== undefined && jwk.alg !== "EdDSA") return { ok: false, error: `key ${kid} is for ${jwk.alg}, not EdDSA` };
  if (jwk.use !== undefined && jwk.use !== "sig") return { ok: false, error: `key ${kid} is for "${jwk.use}", not signatures` };
  const x = fromBase64Url(jwk.x);
  if (!x) return { ok: false, error: `key ${kid}: "x" is not base64url without padding` };
  const problem = publicKeyProblem(x);
  if (problem) return { ok: false, error: `key ${kid}: ${problem}` };
  return { ok: true, publicKey: x };
}

/** @param {unknown} value */
export const canonicalBytes = (value) => utf8.encode(canonicalize(value));

/**
 * Checks an Ed25519 signature (base64url) over the canonical JSON of `value`.
 * @param {import("./report.js").Report} report @param {string} label
 * @param {unknown} value what was signed @param {unknown} signature @param {unknown} kid @param {unknown} jwks
 */
export function checkSignature(report, label, value, signature, kid, jwks) {
  const key = jwksKey(jwks, kid);
  if (!key.ok) return report.fail(`${label}: signing key`, key.error), false;
  report.pass(`${label}: signing key`, `${kid} is a published Ed25519 key`);
  const sig = typeof signature === "string" ? fromBase64Url(signature) : null;
  if (!sig || sig.length !== 64) return report.fail(`${label}: signature`, "not 64 bytes of base64url without padding"), false;
  return report.expect(
    `${label}: signature`,
    verifyStrict(sig, canonicalBytes(value), key.publicKey),
    `Ed25519 by ${kid} over the RFC 8785 canonical JSON`,
    `does not verify with key ${kid} over the RFC 8785 canonical JSON: the content was changed or signed by another key`,
  );
}

/**
 * A signed answer (status, lookup, check): drop the signature field, verify the rest.
 * @param {import("./report.js").Report} report @param {string} label
 * @param {unknown} answer @param {string} signatureField @param {unknown} jwks
 */
export function checkSignedAnswer(report, label, answer, signatureField, jwks) {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return report.fail(label, "the answer is not a JSON object"), false;
  const { [signatureField]: signature, ...signed } = /** @type {Record<string, unknown>} */ (answer);
  if (signature === undefined) return report.fail(`${label}: signature`, `the answer has no "${signatureField}" field`), false;
  return checkSignature(report, label, signed, signature, signed.signing_key_id, jwks);
}
