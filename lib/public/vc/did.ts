import bs58 from "bs58";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { fromB64url, type KeyEnvironment } from "@/lib/signing/keys";
import { publishedKeySet } from "@/lib/signing/published-keys";

/**
 * The service as a `did:web` issuer: its public host, a port percent-encoded (`localhost%3A3000`),
 * resolved at `/.well-known/did.json`. Only the host of PUBLIC_BASE_URL counts.
 *
 * Sandbox credentials have an issuer of their own, `did:web:<host>:sandbox` (resolved at
 * `/sandbox/did.json`), whose document holds only the sandbox keys: a verifier trusting
 * `did:web:<host>` never accepts a sandbox credential, whatever it says.
 */
export function issuerDid(environment: KeyEnvironment = "live", base = getEnv().publicBaseUrl): string {
  const did = `did:web:${new URL(base).host.replace(":", "%3A")}`;
  return environment === "sandbox" ? `${did}:sandbox` : did;
}

/** The verification method of a signing key: its environment's DID, `#`, the key's `kid`. */
export const verificationMethodId = (kid: string, environment: KeyEnvironment = "live", base?: string) =>
  `${issuerDid(environment, base)}#${kid}`;

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
 * `sandbox`: the document of did:web:<host>:sandbox, the published sandbox keys only.
 */
export async function didDocument(db: Db, environment: KeyEnvironment = "live") {
  const id = issuerDid(environment);
  const { keys } = await publishedKeySet(db, environment);
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
