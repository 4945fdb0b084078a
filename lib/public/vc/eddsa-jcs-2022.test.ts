import { createHash, createPublicKey, verify } from "node:crypto";
import { gunzipSync } from "node:zlib";
import bs58 from "bs58";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { keyring, sandboxTwin } from "@/lib/signing/keys";
import { encodeList, LIST_BITS } from "./bitstring";
import { ed25519Multikey, issuerDid } from "./did";
import { signEddsaJcs2022 } from "./eddsa-jcs-2022";

/** The verifier of the spec (§3.3.2, 3.3.5), written apart from the signer with another RFC 8785 library. */
function verifyJcs(secured: Record<string, any>, publicKey: Uint8Array): boolean {
  const { proof, ...unsecured } = secured;
  const { proofValue, ...options } = proof;
  const config = { ...options, "@context": unsecured["@context"] };
  const h = (s: string) => createHash("sha256").update(s).digest();
  const data = Buffer.concat([h(canonicalize(config)!), h(canonicalize(unsecured)!)]);
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey).toString("base64url") }, format: "jwk" });
  expect(proofValue[0]).toBe("z");
  return verify(null, data, key, bs58.decode(proofValue.slice(1)));
}

describe("eddsa-jcs-2022", () => {
  const key = keyring().active;
  const doc = { "@context": ["https://www.w3.org/ns/credentials/v2"], type: ["VerifiableCredential"], issuer: "did:web:x", credentialSubject: { ü: "é", n: 1e21 } };

  it("signs what the spec's verifier accepts, and nothing else", () => {
    const secured = signEddsaJcs2022(doc, new Date("2026-01-02T03:04:05.678Z"));
    expect(secured.proof).toMatchObject({
      type: "DataIntegrityProof", cryptosuite: "eddsa-jcs-2022", created: "2026-01-02T03:04:05Z", proofPurpose: "assertionMethod",
      verificationMethod: `${issuerDid()}#${key.kid}`, "@context": doc["@context"],
    });
    expect(verifyJcs(secured, key.publicKey)).toBe(true);
    expect(verifyJcs({ ...secured, issuer: "did:web:y" }, key.publicKey)).toBe(false);
    expect(verifyJcs({ ...secured, proof: { ...secured.proof, created: "2026-01-02T03:04:06Z" } }, key.publicKey)).toBe(false);
  });

  it("a sandbox key signs as did:web:<host>:sandbox, only for that issuer; a live key never does", () => {
    const sandbox = sandboxTwin(key);
    const secured = signEddsaJcs2022({ ...doc, issuer: issuerDid("sandbox") }, new Date("2026-01-02T03:04:05Z"), sandbox);
    expect(issuerDid("sandbox")).toBe(`${issuerDid()}:sandbox`);
    expect(secured.proof.verificationMethod).toBe(`${issuerDid()}:sandbox#sbx-${key.kid}`);
    expect(verifyJcs(secured, sandbox.publicKey)).toBe(true);
    expect(verifyJcs(secured, key.publicKey)).toBe(false);
    expect(() => signEddsaJcs2022({ ...doc, issuer: issuerDid() }, new Date(), sandbox)).toThrow();
    expect(() => signEddsaJcs2022(doc, new Date(), sandbox)).toThrow();
    expect(() => signEddsaJcs2022({ ...doc, issuer: issuerDid("sandbox") }, new Date(), key)).toThrow();
  });

  it("Multikey: z + base58btc(0xed01 ‖ key)", () => {
    const mk = ed25519Multikey(key.publicKey);
    expect(mk.startsWith("z6Mk")).toBe(true);
    expect([...bs58.decode(mk.slice(1))]).toEqual([0xed, 0x01, ...key.publicKey]);
  });

  it("a status list is 16 KB gzip'd, base64url multibase, most significant bit first", () => {
    const raw = gunzipSync(Buffer.from(encodeList([0, 9, LIST_BITS - 1]).slice(1), "base64url"));
    expect(raw.length).toBe(16_384);
    expect([raw[0], raw[1], raw[16_383]]).toEqual([0x80, 0x40, 0x01]);
    expect(() => encodeList([LIST_BITS])).toThrow(RangeError);
  });
});
