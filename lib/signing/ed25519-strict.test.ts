import { createHash, generateKeyPairSync, sign as nodeSign } from "node:crypto";
import { ED25519_TORSION_SUBGROUP, ed25519 } from "@noble/curves/ed25519.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { checkEd25519PublicKey, verifyEd25519Strict } from "./ed25519-strict";

/**
 * Signatures are made with independent code (node:crypto, @noble/curves, and hand-built
 * forgeries from the curve arithmetic of @noble/curves). Each forgery is first shown to pass
 * the lax default verifier (ZIP-215) — the hole — and then to fail the strict one.
 */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const msg = new TextEncoder().encode("Proof Records wallet challenge\nNonce: 1234");
const lax = (sig: Uint8Array, m: Uint8Array, pub: Uint8Array) => ed25519.verify(sig, m, pub); // library default: zip215

const le32 = (n: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};
const fromLe = (b: Uint8Array) => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);
const sha512modL = (...parts: Uint8Array[]) => fromLe(new Uint8Array(createHash("sha512").update(Buffer.concat(parts)).digest())) % L;
const randomScalar = () => sha512modL(crypto.getRandomValues(new Uint8Array(32)));

/** R = identity, S = 0: "valid" for every message under a key of small order, with cofactored checks. */
const IDENTITY_FORGERY = bs58.decode(bs58.encode(Uint8Array.from([1, ...new Array(63).fill(0)])));

describe("strict Ed25519 verification", () => {
  it("accepts real signatures from node:crypto and @noble/curves", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(12));
    expect(verifyEd25519Strict(new Uint8Array(nodeSign(null, msg, privateKey)), msg, raw)).toBe(true);
    const secret = ed25519.utils.randomSecretKey();
    expect(verifyEd25519Strict(ed25519.sign(msg, secret), msg, ed25519.getPublicKey(secret))).toBe(true);
    // …and refuses them for another message or key
    expect(verifyEd25519Strict(ed25519.sign(msg, secret), new TextEncoder().encode("other"), ed25519.getPublicKey(secret))).toBe(false);
  });

  it.each([
    ["the all-zero key (solana's 1111…1, a point of order 4)", "11111111111111111111111111111111"],
    ["the identity point", "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM"],
  ])("refuses the R = identity, S = 0 forgery under %s", (_what, address) => {
    const pub = bs58.decode(address);
    expect(lax(IDENTITY_FORGERY, msg, pub)).toBe(true); // the hole the review found
    expect(verifyEd25519Strict(IDENTITY_FORGERY, msg, pub)).toBe(false);
    expect(checkEd25519PublicKey(pub)).toMatchObject({ ok: false, reason: "small_order" });
  });

  it("refuses a mixed-order key (a real key plus a torsion point) that the cofactored check accepts", () => {
    const a = randomScalar();
    const T = ED25519_TORSION_SUBGROUP.map((h) => ed25519.Point.fromHex(h)).find((p) => !p.is0() && !p.multiplyUnsafe(4n).is0())!;
    const A2 = ed25519.Point.BASE.multiply(a).add(T).toBytes();
    // Sign "for" A2 by hand: S = r + H(R || A2 || M)·a. Valid only up to the torsion part.
    let sig: Uint8Array;
    for (;;) {
      const r = randomScalar();
      const R = ed25519.Point.BASE.multiply(r).toBytes();
      const k = sha512modL(R, A2, msg);
      if (k % 8n === 0n) continue; // then even the cofactorless equation would hold
      sig = Uint8Array.from([...R, ...le32((r + k * a) % L)]);
      break;
    }
    expect(lax(sig, msg, A2)).toBe(true);
    expect(verifyEd25519Strict(sig, msg, A2)).toBe(false);
    expect(checkEd25519PublicKey(A2)).toMatchObject({ ok: false, reason: "mixed_order" });
  });

  it("refuses a malleated S (S + L) and wrong lengths, and never throws", () => {
    const secret = ed25519.utils.randomSecretKey();
    const pub = ed25519.getPublicKey(secret);
    const sig = ed25519.sign(msg, secret);
    const malleated = Uint8Array.from([...sig.subarray(0, 32), ...le32(fromLe(sig.subarray(32)) + L)]);
    expect(verifyEd25519Strict(malleated, msg, pub)).toBe(false);
    expect(verifyEd25519Strict(sig.subarray(0, 63), msg, pub)).toBe(false);
    expect(verifyEd25519Strict(sig, msg, pub.subarray(0, 31))).toBe(false);
    // y = p (non-canonical encoding of y = 0) and a y with no x on the curve
    const nonCanonical = le32(2n ** 255n - 19n);
    expect(checkEd25519PublicKey(nonCanonical)).toMatchObject({ ok: false, reason: "not_a_point" });
    expect(verifyEd25519Strict(sig, msg, nonCanonical)).toBe(false);
    expect(checkEd25519PublicKey(le32(2n))).toMatchObject({ ok: false, reason: "not_a_point" });
  });
});
