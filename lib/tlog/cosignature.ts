import { createHash, createPublicKey, verify as nodeVerify, type KeyObject } from "node:crypto";

/**
 * C2SP tlog-cosignature, Ed25519 `cosignature/v1` (https://c2sp.org/tlog-cosignature): the
 * witness keys of LOG_WITNESSES, and checking the lines witnesses return. No import of env:
 * lib/env.ts uses parseCosignerVkey to check the setting at start.
 */
export type Cosigner = { name: string; keyId: Buffer; publicKey: Buffer; vkey: string; keyObject: KeyObject };

const ED25519_COSIGNATURE = 0x04;

/** Key ID: SHA-256(name ‖ "\n" ‖ 0x04 ‖ public key)[:4]. */
export const cosignerKeyId = (name: string, publicKey: Uint8Array) =>
  createHash("sha256").update(`${name}\n`, "utf8").update(Buffer.from([ED25519_COSIGNATURE])).update(publicKey).digest().subarray(0, 4);

/**
 * A C2SP vkey of signature type 0x04: `<name>+<8 hex key ID>+<base64(0x04 ‖ 32-byte Ed25519 key)>`.
 * Throws an Error saying what is wrong.
 */
export function parseCosignerVkey(vkey: string): Cosigner {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(vkey.trim());
  if (!m) throw new Error("is not a vkey <name>+<8 hex digits>+<base64 key>");
  const [, name = "", idHex = "", b64 = ""] = m;
  const key = Buffer.from(b64, "base64");
  if (key.length !== 33 || key[0] !== ED25519_COSIGNATURE) {
    throw new Error(`is not an Ed25519 cosignature key (type 0x04 and 32 bytes; got type 0x${(key[0] ?? 0).toString(16).padStart(2, "0")}, ${key.length} bytes)`);
  }
  const publicKey = key.subarray(1);
  const keyId = cosignerKeyId(name, publicKey);
  if (keyId.toString("hex") !== idHex) throw new Error(`has key ID ${idHex}, but the key gives ${keyId.toString("hex")}`);
  let keyObject: KeyObject;
  try {
    keyObject = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: publicKey.toString("base64url") }, format: "jwk" });
  } catch {
    throw new Error("holds no valid Ed25519 public key");
  }
  return { name, keyId, publicKey, vkey: vkey.trim(), keyObject };
}

/** The message a cosigner signs: "cosignature/v1\ntime <t>\n" and the checkpoint body. */
export const cosignedMessage = (body: string, time: number) => Buffer.from(`cosignature/v1\ntime ${time}\n${body}`, "utf8");

/** The body of a signed note: its text up to and including the newline before the blank line. */
export function noteBody(note: string): string {
  const split = note.indexOf("\n\n");
  if (split < 0) throw new Error("the note has no blank line before its signatures");
  return note.slice(0, split + 1);
}

export type LineCheck = { kind: "other" } | { kind: "bad"; error: string } | { kind: "ok"; signedAt: number };

/**
 * One signature line against one cosigner: "other" when it is not that cosigner's (another
 * name or key ID: ignored), "bad" when it is but does not verify, else its timestamp.
 */
export function checkCosignatureLine(line: string, body: string, c: Cosigner): LineCheck {
  const m = /^\u2014 (\S+) ([A-Za-z0-9+/]+=*)$/.exec(line.replace(/\n$/, ""));
  if (!m || m[1] !== c.name) return { kind: "other" };
  const raw = Buffer.from(m[2]!, "base64");
  if (raw.length < 4 || !raw.subarray(0, 4).equals(c.keyId)) return { kind: "other" };
  if (raw.length !== 4 + 8 + 64) return { kind: "bad", error: `a cosignature by ${c.name} has ${raw.length - 4} bytes, not 72 (timestamp and Ed25519 signature)` };
  const t = raw.readBigUInt64BE(4);
  if (t === 0n || t > 2n ** 63n - 1n) return { kind: "bad", error: `a cosignature by ${c.name} has timestamp ${t}` };
  const time = Number(t);
  if (!nodeVerify(null, cosignedMessage(body, time), c.keyObject, raw.subarray(12))) {
    return { kind: "bad", error: `the cosignature by ${c.name} does not verify over the checkpoint` };
  }
  return { kind: "ok", signedAt: time };
}

