import * as ed from "@noble/ed25519";
import { canonicalize } from "json-canonicalize";

/*
 * Checking a signed answer of the service in a browser (the embed badge; no Node APIs): drop
 * the signature field, RFC 8785 canonical JSON of the rest, Ed25519 with the JWKS key named
 * by `signing_key_id` — in strict mode: the key and R must be canonical encodings and the key
 * not of small order, S below the group order. WebCrypto verifies where the browser has
 * Ed25519; otherwise (older browsers) the bundled @noble/ed25519 does, with its RFC 8032
 * branch (`zip215: false`) and WebCrypto's SHA-512. A page that is not a secure context
 * (plain http) has no WebCrypto at all: nothing is verified there ("no_crypto") — such a page
 * can be rewritten in flight anyway, and a pure-JS SHA-512 would double the script's size.
 */

export type Jwk = { kty?: unknown; crv?: unknown; kid?: unknown; x?: unknown; use?: unknown };
export type AnswerCheck = "ok" | "unknown_key" | "bad_signature" | "no_crypto";

/** base64url (no padding) to bytes; null when it is not. */
export function fromBase64url(text: unknown): Uint8Array | null {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** The Ed25519 public key the JWKS publishes under `kid`, or null. */
export function publicKeyFor(keys: readonly Jwk[], kid: unknown): Uint8Array | null {
  if (typeof kid !== "string") return null;
  const jwk = keys.find((k) => k.kid === kid && k.kty === "OKP" && k.crv === "Ed25519");
  const x = jwk ? fromBase64url(jwk.x) : null;
  return x && x.length === 32 ? x : null;
}

const littleEndian = (b: Uint8Array) => BigInt(`0x${ed.etc.bytesToHex(Uint8Array.from(b).reverse()) || "0"}`);

/** What RFC 8032's strict verification refuses before any arithmetic: non-canonical A or R, a small-order A, S ≥ L. */
function strictlyFormed(signature: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    if (ed.Point.fromBytes(publicKey, false).isSmallOrder()) return false;
    ed.Point.fromBytes(signature.subarray(0, 32), false);
  } catch {
    return false;
  }
  return littleEndian(signature.subarray(32)) < ed.Point.CURVE().n;
}

/**
 * Ed25519, strict: WebCrypto when the browser has it, the bundled library otherwise (always
 * when `webCryptoEd25519` is false, as tests use it). Null when there is no WebCrypto.
 */
export async function verifyEd25519(
  signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, { webCryptoEd25519 = true } = {},
): Promise<boolean | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  if (signature.length !== 64 || publicKey.length !== 32 || !strictlyFormed(signature, publicKey)) return false;
  if (webCryptoEd25519) {
    try {
      const key = await subtle.importKey("raw", publicKey as BufferSource, { name: "Ed25519" }, false, ["verify"]);
      return await subtle.verify({ name: "Ed25519" }, key, signature as BufferSource, message as BufferSource);
    } catch {
      // No Ed25519 in this browser's WebCrypto: the library below decides.
    }
  }
  return ed.verifyAsync(signature, message, publicKey, { zip215: false });
}

/** Check one signed answer (a parsed JSON object) against the published keys. */
export async function checkSignedAnswer(
  body: Record<string, unknown>, keys: readonly Jwk[], signatureField: string, opts?: { webCryptoEd25519?: boolean },
): Promise<AnswerCheck> {
  const publicKey = publicKeyFor(keys, body.signing_key_id);
  if (!publicKey) return "unknown_key";
  const signature = fromBase64url(body[signatureField]);
  if (!signature) return "bad_signature";
  const { [signatureField]: _dropped, ...payload } = body;
  const message = new TextEncoder().encode(canonicalize(payload));
  const ok = await verifyEd25519(signature, message, publicKey, opts);
  return ok === null ? "no_crypto" : ok ? "ok" : "bad_signature";
}
