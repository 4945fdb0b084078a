import bs58 from "bs58";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { fromB64url } from "@/lib/signing/keys";
import { publishedJwks } from "@/lib/signing/published-keys";

/**
 * The service as a `did:web` issuer: its public host, a port percent-encoded (`localhost%3A3000`),
 * resolved at `/.well-known/did.json`. Only the host of PUBLIC_BASE_URL counts.
 */
export function issuerDid(base = getEnv().publicBaseUrl): string {
  return `did:web:${new URL(base).host.replace(":", "%3A")}`;
}

/** The verification method of a signing key: the DID, `#`, the key's `kid`. */
export const verificationMethodId = (kid: string, base?: string) => `${issuerDid(base)}#${kid}`;

/** A Multikey Ed25519 public key: base58btc (`z`) of the multicodec prefix 0xed 0x01 and the 32 key bytes. */
export function ed25519Multikey(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new Error("an Ed25519 public key has 32 bytes");
  const bytes = new Uint8Array(34);
  bytes.set([0xed, 0x01]);
  bytes.set(publicKey, 2);
  return `z${bs58.encode(bytes)}`;
}

export const DID_CONTEXTS = ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"] as const;

/**
 * The DID document: every published signing key (the same set as the JWKS, read from the
 * table) as a Multikey verification method, each usable for assertions (credentials).
 */
export async function didDocument(db: Db) {
  const id = issuerDid();
  const { keys } = await publishedJwks(db);
  const methods = keys.map((k) => ({
    id: `${id}#${k.kid}`,
    type: "Multikey" as const,
    controller: id,
    publicKeyMultibase: ed25519Multikey(fromB64url(k.x)),
  }));
  return {
    "@context": [...DID_CONTEXTS],
    id,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}
