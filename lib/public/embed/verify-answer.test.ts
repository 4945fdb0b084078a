import { generateKeyPairSync, sign } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { checkSignedAnswer, fromBase64url, type Jwk } from "./verify-answer";

/*
 * The badge's signature check, on both of its paths (the browser's WebCrypto Ed25519, and the
 * bundled library where WebCrypto has none), against answers signed here with node:crypto over
 * the canonical JSON of an independent RFC 8785 library.
 */
const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const x = publicKey.export({ format: "jwk" }).x!;
const KID = "test-key-1";
const keys: Jwk[] = [{ kty: "OKP", crv: "Ed25519", kid: KID, x }];

function signed(fields: Record<string, unknown>) {
  const payload = { ...fields, signing_key_id: KID };
  const sig = sign(null, Buffer.from(canonicalize(payload)!), privateKey).toString("base64url");
  return { ...payload, status_signature: sig };
}
const answer = () => signed({ verification_id: "PRS-0000000000000000000A", status: "active", subject: "Ünïcödé Ltd", websites: ["example.com"], n: 1.5 });

for (const webCryptoEd25519 of [true, false]) {
  describe(`a signed answer (${webCryptoEd25519 ? "WebCrypto" : "bundled library"})`, () => {
    const check = (body: Record<string, unknown>, k = keys) => checkSignedAnswer(body, k, "status_signature", { webCryptoEd25519 });

    it("checks out as signed, whatever the order of its fields", async () => {
      const a = answer();
      expect(await check(a)).toBe("ok");
      expect(await check(Object.fromEntries(Object.entries(a).reverse()))).toBe("ok");
    });

    it("fails when one character of a field changed", async () => {
      expect(await check({ ...answer(), subject: "Ünïcödé Ltc" })).toBe("bad_signature");
      expect(await check({ ...answer(), status: "revoked" })).toBe("bad_signature");
    });

    it("names an unknown key when the kid is not published, or the key is not Ed25519", async () => {
      expect(await check({ ...answer(), signing_key_id: "other" })).toBe("unknown_key");
      expect(await check(answer(), [{ ...keys[0]!, crv: "X25519" }])).toBe("unknown_key");
      expect(await check(answer(), [])).toBe("unknown_key");
    });

    it("refuses a signature that is not 64 base64url bytes", async () => {
      expect(await check({ ...answer(), status_signature: "abc" })).toBe("bad_signature");
      expect(await check({ ...answer(), status_signature: 42 })).toBe("bad_signature");
    });

    it("refuses a small-order key, whose forged signature a lax verifier accepts for any message", async () => {
      const identity = new Uint8Array(32);
      identity[0] = 1; // the neutral point: [S]B = R + [k]A holds with R = A = identity, S = 0
      const forged = Buffer.concat([identity, new Uint8Array(32)]).toString("base64url");
      const weak: Jwk[] = [{ kty: "OKP", crv: "Ed25519", kid: KID, x: Buffer.from(identity).toString("base64url") }];
      expect(await check({ ...answer(), status_signature: forged }, weak)).toBe("bad_signature");
    });

    it("refuses a non-canonical S (S + L), which some verifiers accept", async () => {
      const a = answer();
      const sig = Buffer.from(a.status_signature, "base64url");
      const L = 2n ** 252n + 27742317777372353535851937790883648493n;
      let s = 0n;
      for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]!);
      s += L;
      for (let i = 32; i < 64; i++) { sig[i] = Number(s & 0xffn); s >>= 8n; }
      expect(s).toBe(0n); // still fits in 32 bytes
      expect(await check({ ...a, status_signature: sig.toString("base64url") })).toBe("bad_signature");
    });
  });
}

describe("base64url", () => {
  it("decodes without padding and refuses other alphabets", () => {
    expect(Buffer.from(fromBase64url("_-8")!).toString("hex")).toBe("ffef");
    expect(fromBase64url("a+b/")).toBeNull();
    expect(fromBase64url("a")).toBeNull();
  });
});
