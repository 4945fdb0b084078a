import { describe, expect, it } from "vitest";
import { toHex } from "../src/bytes.js";
import { publicKeyOf } from "../src/ed25519.js";
import { formatVerifierKey, keyHash, openNote, parseCheckpointText, parseVerifierKey, signNote, signatureLine, verifyCheckpoint } from "../src/note.js";

// golang.org/x/mod/sumdb/note's test vector.
const VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const SEED = new Uint8Array(Buffer.from("AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz", "base64").subarray(1));
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const LINE = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

describe("signed notes", () => {
  it("verifies the PeterNeumann note", () => {
    const r = openNote(`${TEXT}\n${LINE}`, parseVerifierKey(VKEY));
    expect(r).toEqual({ ok: true, text: TEXT });
  });

  it("signs it to exactly the known line, and the key to exactly the known vkey", () => {
    expect(signatureLine(TEXT, "PeterNeumann", SEED)).toBe(LINE);
    expect(signNote(TEXT, "PeterNeumann", SEED)).toBe(`${TEXT}\n${LINE}`);
    expect(formatVerifierKey("PeterNeumann", publicKeyOf(SEED))).toBe(VKEY);
    expect(toHex(keyHash("PeterNeumann", publicKeyOf(SEED)))).toBe("c74f20a3");
  });

  it("refuses a changed text, a changed signature, and a note signed only by others", () => {
    const key = parseVerifierKey(VKEY);
    expect(openNote(`${TEXT.replace("answer", "Answer")}\n${LINE}`, key)).toMatchObject({ ok: false, error: expect.stringMatching(/does not verify/) });
    const badSig = LINE.replace("x08go", "x08gp");
    expect(openNote(`${TEXT}\n${badSig}`, key).ok).toBe(false);
    const other = signatureLine(TEXT, "Someone", new Uint8Array(32).fill(7));
    expect(openNote(`${TEXT}\n${other}`, key)).toMatchObject({ ok: false, error: expect.stringMatching(/no signature by PeterNeumann\+c74f20a3 \(signed by: Someone\+/) });
    // Another key's line beside a good one is ignored.
    expect(openNote(`${TEXT}\n${other}${LINE}`, key).ok).toBe(true);
    expect(openNote(`${TEXT}${LINE}`, key).ok).toBe(false); // no blank line
    expect(openNote(`${TEXT}\n${LINE.replace("— ", "- ")}`, key).ok).toBe(false); // hyphen, not em dash
    expect(openNote(`${TEXT}\n${LINE.trimEnd()}`, key).ok).toBe(false); // no final newline
  });
});

describe("verifier keys", () => {
  it("parses the known key, and keys whose base64 holds a \"+\"", () => {
    for (let i = 0; i < 40; i++) {
      const pub = publicKeyOf(new Uint8Array(32).fill(i));
      expect(parseVerifierKey(formatVerifierKey("log.example/log", pub)).publicKey).toEqual(pub);
    }
    const k = parseVerifierKey(VKEY);
    expect(k.name).toBe("PeterNeumann");
    expect(toHex(k.keyHash)).toBe("c74f20a3");
    expect(toHex(k.publicKey)).toBe(toHex(publicKeyOf(SEED)));
  });

  const key = Buffer.from(VKEY.split("+")[2]!, "base64");
  const smallOrder = Buffer.concat([Buffer.from([1, 1]), Buffer.alloc(31)]).toString("base64"); // 0x01 ‖ identity point
  it.each([
    ["two parts", "PeterNeumann+c74f20a3", /three parts/],
    ["a fourth part", `${VKEY}+x`, /base64/],
    ["a name with a plus", `Peter+Neumann+c74f20a3+${key.toString("base64")}`, /8 lower-case hex/],
    ["an empty name", "+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", /name/],
    ["a name with a space", "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", /name/],
    ["a short hash", "PeterNeumann+c74f20a+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", /8 lower-case hex/],
    ["an upper-case hash", "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", /8 lower-case hex/],
    ["a wrong hash", "PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", /does not match/],
    ["another name for the key", "PaulNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", /does not match/],
    ["another key type", `PeterNeumann+c74f20a3+${Buffer.concat([Buffer.from([2]), key.subarray(1)]).toString("base64")}`, /not an Ed25519 key/],
    ["a short key", `PeterNeumann+c74f20a3+${key.subarray(0, 32).toString("base64")}`, /not an Ed25519 key/],
    ["bad base64", "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10T", /base64/],
    ["a small-order key", `Weak+00000000+${smallOrder}`, /small order/],
  ])("refuses %s", (_what, vkey, message) => {
    expect(() => parseVerifierKey(vkey)).toThrow(message);
  });
});

describe("checkpoints", () => {
  const seed = new Uint8Array(32).fill(3);
  const origin = "proof.example/log";
  const key = parseVerifierKey(formatVerifierKey(origin, publicKeyOf(seed)));
  const root = Buffer.alloc(32, 9).toString("base64");

  it("reads origin, size, root and extension lines of a signed checkpoint", () => {
    const r = verifyCheckpoint(signNote(`${origin}\n42\n${root}\next one\n`, origin, seed), key);
    expect(r.ok && { ...r.checkpoint, rootHash: Buffer.from(r.checkpoint.rootHash).toString("base64") }).toEqual({ origin, size: 42, rootHash: root, extensions: ["ext one"] });
  });

  it("refuses a checkpoint for another origin than the key's name", () => {
    const other = "other.example/log";
    expect(verifyCheckpoint(signNote(`${other}\n1\n${root}\n`, origin, seed), key)).toMatchObject({ ok: false, error: expect.stringMatching(/origin/) });
  });

  it.each([
    ["a size with a leading zero", `${origin}\n042\n${root}\n`],
    ["a negative size", `${origin}\n-1\n${root}\n`],
    ["a short root", `${origin}\n1\n${Buffer.alloc(31).toString("base64")}\n`],
    ["url-safe base64", `${origin}\n1\n${Buffer.alloc(32, 0xfb).toString("base64url")}\n`],
    ["no root line", `${origin}\n1\n`],
    ["an empty extension line", `${origin}\n1\n${root}\n\n`],
  ])("refuses %s", (_what, text) => {
    expect(() => parseCheckpointText(text)).toThrow();
  });
});
