// Ed25519, strict: the key must be the canonical encoding of a point of the prime-order
// subgroup (no small-order or mixed-order keys, which accept forged signatures), and the
// signature is checked the RFC 8032 way (canonical R and S < L, cofactorless equation),
// as the service does in lib/signing/ed25519-strict.ts.
import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";

ed.hashes.sha512 ??= (msg) => new Uint8Array(createHash("sha512").update(msg).digest());

/**
 * Why `bytes` cannot be a public key, or null when it can.
 * @param {Uint8Array} bytes @returns {string | null}
 */
export function publicKeyProblem(bytes) {
  if (bytes.length !== 32) return `an Ed25519 public key is 32 bytes, not ${bytes.length}`;
  let point;
  try {
    point = ed.Point.fromBytes(bytes, false);
  } catch {
    return "the bytes are not a canonically encoded point on the Ed25519 curve";
  }
  if (point.isSmallOrder()) return "a weak key (a point of small order) that accepts forged signatures; refused";
  if (!point.isTorsionFree()) return "not a point of Ed25519's prime-order subgroup (mixed order); refused";
  return null;
}

/**
 * @param {Uint8Array} signature @param {Uint8Array} message @param {Uint8Array} publicKey
 * @returns {boolean} never throws
 */
export function verifyStrict(signature, message, publicKey) {
  if (signature.length !== 64 || publicKeyProblem(publicKey) !== null) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** @param {Uint8Array} message @param {Uint8Array} seed 32-byte private key */
export const sign = (message, seed) => ed.sign(message, seed);

/** @param {Uint8Array} seed */
export const publicKeyOf = (seed) => ed.getPublicKey(seed);
