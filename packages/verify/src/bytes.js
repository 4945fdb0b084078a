// Byte helpers: hex, base64 (standard and url-safe), SHA-256. Strict decoders: a string
// that is not the one canonical encoding of its bytes is refused, so two spellings of
// one value never both pass.
import { createHash } from "node:crypto";

/** @param {Uint8Array | string} data @returns {Uint8Array} */
export function sha256(data) {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

/** @param {Uint8Array} bytes */
export const toHex = (bytes) => Buffer.from(bytes).toString("hex");

/** @param {Uint8Array} bytes */
export const toBase64 = (bytes) => Buffer.from(bytes).toString("base64");

/** @param {Uint8Array} bytes */
export const toBase64Url = (bytes) => Buffer.from(bytes).toString("base64url");

/**
 * Lower- or upper-case hex of an even length; null when malformed.
 * @param {string} text @returns {Uint8Array | null}
 */
export function fromHex(text) {
  if (typeof text !== "string" || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  return new Uint8Array(Buffer.from(text, "hex"));
}

/**
 * Standard base64 with padding (Go's `[]byte` JSON and the signed note's encoding); null
 * when malformed or not canonical.
 * @param {string} text @returns {Uint8Array | null}
 */
export function fromBase64(text) {
  if (typeof text !== "string" || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, "base64");
  return bytes.toString("base64") === text ? new Uint8Array(bytes) : null;
}

/**
 * base64url without padding (the service's signatures and JWK `x`); null when malformed
 * or not canonical.
 * @param {string} text @returns {Uint8Array | null}
 */
export function fromBase64Url(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? new Uint8Array(bytes) : null;
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function bytesEqual(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= /** @type {number} */ (a[i]) ^ /** @type {number} */ (b[i]);
  return diff === 0;
}

/** @param {...Uint8Array} parts */
export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const utf8 = new TextEncoder();
