import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";

/**
 * The one place the service checks an Ed25519 signature made with somebody else's key
 * (solana wallet proofs, mandate keys and mandates, anything added later).
 *
 * Strict on purpose. The library's default (ZIP-215, cofactored) accepts a forged
 * signature R = identity, S = 0 for every message under a small-order public key, and a
 * key that is a torsion point accepts it even cofactorless. So the key must be the one
 * canonical encoding of a point of the prime-order subgroup, and the signature is checked
 * the RFC 8032 way (`zip215: false`: canonical R and S, cofactorless equation).
 */
ed.hashes.sha512 ??= (msg: Uint8Array) => new Uint8Array(createHash("sha512").update(msg).digest());

export type Ed25519KeyCheck = { ok: true; point: ed.Point } | { ok: false; reason: "not_a_point" | "small_order" | "mixed_order"; message: string };

/** Is `bytes` a public key a real key pair can have? Never throws. */
export function checkEd25519PublicKey(bytes: Uint8Array): Ed25519KeyCheck {
  if (bytes.length !== 32) return { ok: false, reason: "not_a_point", message: `An Ed25519 public key is 32 bytes, not ${bytes.length}.` };
  let point: ed.Point;
  try {
    point = ed.Point.fromBytes(bytes, false); // RFC 8032 strict: canonical y only
  } catch {
    return { ok: false, reason: "not_a_point", message: "The bytes are not a canonically encoded point on the Ed25519 curve." };
  }
  // Small-order keys accept forged signatures for any message; mixed-order keys are never
  // produced by a key generator and are read differently by different verifiers.
  if (point.isSmallOrder()) return { ok: false, reason: "small_order", message: "A weak Ed25519 key (a point of small order) that no key pair has." };
  if (!point.isTorsionFree()) return { ok: false, reason: "mixed_order", message: "Not a point of Ed25519's prime-order subgroup." };
  return { ok: true, point };
}

/** RFC 8032 verification of a 64-byte signature, after the key check above. Never throws. */
export function verifyEd25519Strict(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || !checkEd25519PublicKey(publicKey).ok) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}
