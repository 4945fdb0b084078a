import { createHash, sign as nodeSign } from "node:crypto";
import bs58 from "bs58";
import { canonicalJson } from "@/lib/signing/canonical";
import { keyring, type SigningKey } from "@/lib/signing/keys";
import { issuerDid, verificationMethodId } from "./did";

/**
 * W3C Data Integrity EdDSA Cryptosuites v1.0, `eddsa-jcs-2022` (§3.3): the proof
 * configuration (the proof options with the document's `@context`) and the document without
 * its proof, each canonicalised with RFC 8785 and hashed with SHA-256; Ed25519 over
 * hash(proof config) ‖ hash(document); `proofValue` is base58btc multibase (`z…`).
 *
 * The proof carries `@context` (equal to the document's): the spec's verifier puts the
 * document's context into the proof configuration, and libraries that hash the proof as
 * given (Digital Bazaar's) then hash the same bytes.
 */
export type DataIntegrityProof = {
  "@context": unknown;
  type: "DataIntegrityProof";
  cryptosuite: "eddsa-jcs-2022";
  created: string;
  verificationMethod: string;
  proofPurpose: "assertionMethod";
  proofValue: string;
};

type Unsecured = { "@context": unknown } & Record<string, unknown>;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** An XML Schema dateTimeStamp without fractions: what every verifier parses. */
export const xsdDateTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The bytes Ed25519 signs: SHA-256 of the canonical proof configuration, then of the canonical document. */
export function hashData(document: Unsecured, proofConfig: Record<string, unknown>): Uint8Array {
  const { proof: _ignored, ...unsecured } = document;
  return Buffer.concat([sha256(canonicalJson(proofConfig)), sha256(canonicalJson(unsecured))]);
}

/**
 * `document` with a DataIntegrityProof (eddsa-jcs-2022) made with `key` (the active signing key
 * by default), named as a verification method of the key's DID: a sandbox key's of
 * did:web:<host>:sandbox. A sandbox key signs only documents whose `issuer` is the sandbox DID,
 * and a live key never signs one: neither issuer's credentials can carry the other's keys.
 */
export function signEddsaJcs2022<T extends Unsecured>(document: T, created: Date, key: SigningKey = keyring().active): T & { proof: DataIntegrityProof } {
  const live = key.environment === "live";
  if (live ? document.issuer === issuerDid("sandbox") : document.issuer !== issuerDid("sandbox")) {
    throw new Error(`a ${key.environment} key does not sign for issuer ${String(document.issuer)}`);
  }
  const proofConfig = {
    "@context": document["@context"],
    type: "DataIntegrityProof" as const,
    cryptosuite: "eddsa-jcs-2022" as const,
    created: xsdDateTime(created),
    verificationMethod: verificationMethodId(key.kid, key.environment),
    proofPurpose: "assertionMethod" as const,
  };
  const signature = nodeSign(null, hashData(document, proofConfig), key.privateObject);
  return { ...document, proof: { ...proofConfig, proofValue: `z${bs58.encode(signature)}` } };
}
