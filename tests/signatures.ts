import canonicalize from "canonicalize";
import { createHash } from "node:crypto";
import { createLocalJWKSet, type JSONWebKeySet } from "jose";
import { call } from "./helpers";

/**
 * Check a bare Ed25519 signature (base64url) over the RFC 8785 form of `payload`, using
 * only independent code: jose imports the key from the published JWKS, canonicalize
 * encodes, WebCrypto verifies. Nothing of the service's own signing code is involved.
 */
export async function verifyWithJwks(payload: unknown, signature: string, kid: string): Promise<boolean> {
  return verifyWithKeySet((await call("GET", "/.well-known/jwks.json")).body, payload, signature, kid);
}

/** The same check against a key set at hand (an in-process test's `publicJwks()`). */
export async function verifyWithKeySet(keySet: JSONWebKeySet, payload: unknown, signature: string, kid: string): Promise<boolean> {
  const key = (await createLocalJWKSet(keySet)({ alg: "EdDSA", kid })) as CryptoKey;
  const bytes = new TextEncoder().encode(canonicalize(payload)!);
  return crypto.subtle.verify("Ed25519", key, Buffer.from(signature, "base64url"), bytes);
}

/** Hex SHA-256 of the RFC 8785 form of `payload` (what `payload_sha256` states). */
export const canonicalSha256 = (payload: unknown) => createHash("sha256").update(canonicalize(payload)!).digest("hex");
