// Checking what the service signs, without trusting it: Ed25519 (RFC 8032, strict) over the
// RFC 8785 canonical JSON of an answer without its signature field, with the key of the
// published JWK Set (/.well-known/jwks.json) whose kid the answer names.
import * as ed from "@noble/ed25519";
import { canonicalize } from "json-canonicalize";
import { verifyCheckpoint, type CheckpointPolicy } from "./checkpoint.js";
import type { components } from "./generated/openapi.js";

export type Jwk = components["schemas"]["Jwk"];
export type Jwks = components["schemas"]["Jwks"];
export type SignedStatus = components["schemas"]["SignedStatus"];
export type LookupAnswer = components["schemas"]["LookupAnswer"];
export type CheckAnswer = components["schemas"]["CheckAnswer"];

export type VerifyFailure =
  | "not_an_object" //          the answer is not a JSON object
  | "missing_signature" //      no signature field
  | "unknown_key" //            no key in the JWKS with the answer's signing_key_id (fetch the JWKS again)
  | "unusable_key" //           the key is not an Ed25519 signing key, or is a weak (small-order) point
  | "malformed_signature" //    not 64 bytes of base64url
  | "bad_signature" //          does not verify: the answer was changed, or signed by another key
  | "verification_id_mismatch" // a valid status, but about another record than the one expected
  | "bad_checkpoint" //         with options.log: its transparency_log checkpoint is not signed by the log key, or its root is not the checkpoint's
  | "not_witnessed"; //         with options.log and witnesses: the checkpoint lacks the quorum of cosignatures

/** Verification outcomes are data, like the service's own: never thrown. */
export type VerifyResult = { valid: true; key_id: string } | { valid: false; code: VerifyFailure; message: string; key_id?: string };

const fail = (code: VerifyFailure, message: string, key_id?: string): VerifyResult =>
  key_id === undefined ? { valid: false, code, message } : { valid: false, code, message, key_id };

/** base64url without padding (what the service writes); null for anything else. */
export function fromBase64Url(s: unknown): Uint8Array | null {
  if (typeof s !== "string" || !/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  return new Uint8Array(Buffer.from(s, "base64url"));
}

/**
 * Why these 32 bytes cannot be trusted as an Ed25519 public key, or null when they can: the
 * canonical encoding of a point of the prime-order subgroup. Small-order (and mixed-order)
 * keys are refused: a signature "by" such a key can be forged for any message.
 */
export function publicKeyProblem(bytes: Uint8Array): string | null {
  if (bytes.length !== 32) return `an Ed25519 public key is 32 bytes, not ${bytes.length}`;
  let point: InstanceType<typeof ed.Point>;
  try {
    point = ed.Point.fromBytes(bytes, false);
  } catch {
    return "not a canonically encoded point on the Ed25519 curve";
  }
  if (point.isSmallOrder()) return "a weak key (a point of small order) that accepts forged signatures";
  if (!point.isTorsionFree()) return "not in Ed25519's prime-order subgroup (mixed order)";
  return null;
}

/**
 * Strict Ed25519 (RFC 8032: canonical R and S < L, cofactorless, no ZIP-215 leniency), with
 * the key checked by publicKeyProblem first. Never throws.
 */
export async function ed25519VerifyStrict(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
  if (signature.length !== 64 || publicKeyProblem(publicKey) !== null) return false;
  try {
    return await ed.verifyAsync(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** The usable Ed25519 public key with this kid, or why there is none. */
export function jwksKey(jwks: { keys?: unknown } | null | undefined, kid: unknown): { ok: true; publicKey: Uint8Array } | { ok: false; code: "unknown_key" | "unusable_key"; message: string } {
  const keys = jwks?.keys;
  if (!Array.isArray(keys)) return { ok: false, code: "unknown_key", message: 'the JWKS has no "keys" array' };
  if (typeof kid !== "string" || kid === "") return { ok: false, code: "unknown_key", message: "no signing key id given" };
  const found = keys.filter((k): k is Record<string, unknown> => !!k && typeof k === "object" && (k as { kid?: unknown }).kid === kid);
  if (found.length !== 1) return { ok: false, code: "unknown_key", message: found.length === 0 ? `no key with kid ${JSON.stringify(kid)} in the JWKS` : `${found.length} keys with kid ${JSON.stringify(kid)}` };
  const jwk = found[0]!;
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519") return { ok: false, code: "unusable_key", message: `key ${kid} is not an OKP Ed25519 key` };
  if (jwk.alg !== undefined && jwk.alg !== "EdDSA") return { ok: false, code: "unusable_key", message: `key ${kid} is for ${String(jwk.alg)}, not EdDSA` };
  if (jwk.use !== undefined && jwk.use !== "sig") return { ok: false, code: "unusable_key", message: `key ${kid} is not for signatures` };
  const x = fromBase64Url(jwk.x);
  if (!x) return { ok: false, code: "unusable_key", message: `key ${kid}: "x" is not base64url` };
  const problem = publicKeyProblem(x);
  if (problem) return { ok: false, code: "unusable_key", message: `key ${kid}: ${problem}` };
  return { ok: true, publicKey: x };
}

/** The UTF-8 bytes of the RFC 8785 canonical JSON of a value. */
export const canonicalBytes = (value: unknown): Uint8Array => new TextEncoder().encode(canonicalize(value));

/**
 * Any signed answer: drop `signatureField`, canonicalize the rest (unknown fields included:
 * they are signed too), verify with the JWKS key named by its signing_key_id.
 */
export async function verifySignedAnswer(answer: unknown, signatureField: string, jwks: Jwks | { keys?: unknown }): Promise<VerifyResult> {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return fail("not_an_object", "the answer is not a JSON object");
  const { [signatureField]: signature, ...signed } = answer as Record<string, unknown>;
  if (signature === undefined) return fail("missing_signature", `the answer has no "${signatureField}" field`);
  const kid = signed.signing_key_id;
  const key = jwksKey(jwks, kid);
  if (!key.ok) return fail(key.code, key.message, typeof kid === "string" ? kid : undefined);
  const sig = fromBase64Url(signature);
  if (!sig || sig.length !== 64) return fail("malformed_signature", `"${signatureField}" is not 64 bytes of base64url`, kid as string);
  if (!(await ed25519VerifyStrict(sig, canonicalBytes(signed), key.publicKey))) {
    return fail("bad_signature", `the signature does not verify with key ${String(kid)}: the answer was changed or signed by another key`, kid as string);
  }
  return { valid: true, key_id: kid as string };
}

/**
 * A signed status (GET /api/v1/records/{id}/status). With `verificationId`, also that it is
 * about that record. With `log` (the log key, and the witnesses you trust with their quorum),
 * also the checkpoint of its `transparency_log` (null while the latest change is pending: not
 * checked). What it says — `status`, `environment`, `as_of` — is for you to judge.
 */
export async function verifyStatus(
  answer: SignedStatus | unknown, jwks: Jwks, options: { verificationId?: string; log?: CheckpointPolicy } = {},
): Promise<VerifyResult> {
  const r = await verifySignedAnswer(answer, "status_signature", jwks);
  const id = (answer as { verification_id?: unknown }).verification_id;
  if (r.valid && options.verificationId !== undefined && id !== options.verificationId) {
    return fail("verification_id_mismatch", `the status is about ${String(id)}, not ${options.verificationId}`, r.key_id);
  }
  const tl = (answer as { transparency_log?: { checkpoint?: unknown; root_hash?: unknown } | null }).transparency_log;
  if (r.valid && options.log && tl) {
    const c = await verifyCheckpoint(tl.checkpoint, options.log);
    if (!c.valid) return fail(c.code === "not_witnessed" ? "not_witnessed" : "bad_checkpoint", `transparency_log: ${c.message}`, r.key_id);
    if (c.root_hash !== tl.root_hash) return fail("bad_checkpoint", "transparency_log: root_hash is not the checkpoint's root", r.key_id);
  }
  return r;
}

/** A signed lookup answer (GET /api/v1/lookup). */
export const verifyLookup = (answer: LookupAnswer | unknown, jwks: Jwks): Promise<VerifyResult> => verifySignedAnswer(answer, "signature", jwks);

/** A signed check answer (GET /api/v1/check). */
export const verifyCheck = (answer: CheckAnswer | unknown, jwks: Jwks): Promise<VerifyResult> => verifySignedAnswer(answer, "signature", jwks);
