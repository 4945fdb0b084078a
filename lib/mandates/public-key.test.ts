import { generateKeyPairSync } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { describe, expect, it } from "vitest";
import { findPrivateKeyField, parseMandatePublicKey } from "./public-key";

const b64u = (b: Uint8Array) => Buffer.from(b).toString("base64url");

/** A fresh key pair from node:crypto (OpenSSL), independent of the noble code under test. */
function nodeKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = privateKey.export({ format: "jwk" }) as { x: string; d: string };
  return { privateKey, publicKey, x: jwk.x, d: jwk.d };
}

const code = (v: string) => {
  const r = parseMandatePublicKey(v);
  return r.ok ? "ok" : r.error.code;
};

describe("parseMandatePublicKey", () => {
  it("accepts the raw 32 bytes of real keys (node:crypto and @noble/curves)", () => {
    for (let i = 0; i < 20; i++) {
      const { x } = nodeKeyPair();
      const r = parseMandatePublicKey(x);
      expect(r.ok).toBe(true);
      if (r.ok) expect(b64u(r.bytes)).toBe(x);
    }
    expect(code(b64u(ed25519.getPublicKey(ed25519.utils.randomSecretKey())))).toBe("ok");
  });

  it("refuses what is not base64url of 32 bytes, with a message that says what to send", () => {
    const { x, publicKey } = nodeKeyPair();
    const raw = Buffer.from(x, "base64url");
    expect(code(x.slice(0, 42))).toBe("invalid_public_key"); // 31.5 bytes
    expect(code(b64u(raw.subarray(0, 31)))).toBe("invalid_public_key");
    expect(code(b64u(Buffer.concat([raw, Buffer.from([0])])))).toBe("invalid_public_key"); // 33 bytes
    expect(code(raw.toString("base64"))).not.toBe("ok"); // padding (and perhaps + or /)
    expect(code(`${x}=`)).toBe("invalid_public_key");
    expect(code("not base64url!")).toBe("invalid_public_key");
    expect(code(raw.toString("hex"))).toBe("invalid_public_key");
    expect(parseMandatePublicKey(raw.toString("hex"))).toMatchObject({ error: { message: expect.stringMatching(/hex/) } });
    const spki = parseMandatePublicKey(b64u(publicKey.export({ format: "der", type: "spki" })));
    expect(spki).toMatchObject({ ok: false, error: { code: "invalid_public_key", message: expect.stringMatching(/last 32 bytes/) } });
    expect(code(String(publicKey.export({ format: "pem", type: "spki" })))).toBe("invalid_public_key");
  });

  it("accepts only the canonical spelling of the bytes", () => {
    const { x } = nodeKeyPair();
    // 43 characters carry 258 bits: the last character's two low bits must be zero.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(x[42]!);
    const sloppy = x.slice(0, 42) + alphabet[last | 1];
    expect(Buffer.from(sloppy, "base64url").equals(Buffer.from(x, "base64url"))).toBe(true);
    expect(code(sloppy)).toBe("invalid_public_key");
  });

  it("refuses bytes that are not a point, small-order points and points outside the prime-order subgroup", () => {
    // y = 2 has no x on the curve.
    const notOnCurve = Buffer.alloc(32);
    notOnCurve[0] = 2;
    expect(parseMandatePublicKey(b64u(notOnCurve))).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not a point/) } });
    // The identity (y = 1) and a point of order 8: any signature "verifies" under them.
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    expect(parseMandatePublicKey(b64u(identity))).toMatchObject({ ok: false, error: { message: expect.stringMatching(/small order/) } });
    const order8 = ed25519.Point.fromHex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa");
    expect(order8.multiplyUnsafe(8n).is0()).toBe(true);
    expect(code(b64u(order8.toBytes()))).toBe("invalid_public_key");
    // A real key plus a torsion point: on the curve, not small order, not a key a generator makes.
    const real = ed25519.Point.fromBytes(Buffer.from(nodeKeyPair().x, "base64url"));
    expect(parseMandatePublicKey(b64u(real.add(order8).toBytes()))).toMatchObject({
      ok: false, error: { message: expect.stringMatching(/prime-order subgroup/) },
    });
    // y ≥ p (non-canonical encoding of y = 1 + p - p … here p + 1): refused in strict mode.
    const p = 2n ** 255n - 19n;
    const nonCanonical = Buffer.alloc(32);
    let y = p + 1n;
    for (let i = 0; i < 32; i++, y >>= 8n) nonCanonical[i] = Number(y & 0xffn);
    expect(code(b64u(nonCanonical))).toBe("invalid_public_key");
  });

  it("recognises private key material in every usual form", () => {
    const { privateKey, x, d } = nodeKeyPair();
    const seedAndPublic = Buffer.concat([Buffer.from(d, "base64url"), Buffer.from(x, "base64url")]);
    expect(code(b64u(seedAndPublic))).toBe("private_key_not_accepted");
    expect(code(seedAndPublic.toString("hex"))).toBe("private_key_not_accepted");
    expect(code(b64u(privateKey.export({ format: "der", type: "pkcs8" })))).toBe("private_key_not_accepted");
    expect(code(String(privateKey.export({ format: "pem", type: "pkcs8" })))).toBe("private_key_not_accepted");
    const r = parseMandatePublicKey(b64u(seedAndPublic));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/Never send a private key/);
      expect(r.error.message).not.toContain(d);
    }
  });

  it("findPrivateKeyField names the field that carries a private key", () => {
    const { x, d } = nodeKeyPair();
    expect(findPrivateKeyField({ key_id: "k-1", public_key: x })).toBeNull();
    expect(findPrivateKeyField({ key_id: "k-1", public_key: x, d })).toMatchObject({ code: "private_key_not_accepted", param: "d" });
    expect(findPrivateKeyField({ key_id: "k-1", private_key: d })).toMatchObject({ param: "private_key" });
    expect(findPrivateKeyField({ key_id: "k-1", public_key: { kty: "OKP", crv: "Ed25519", x, d } })).toMatchObject({ param: "public_key.d" });
  });
});
