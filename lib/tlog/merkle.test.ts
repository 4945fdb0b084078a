import { createPublicKey, verify as nodeVerify } from "node:crypto";
import knownRoots from "../../tests/vectors/merkle/roots.json";
import { describe, expect, it } from "vitest";
import { consistencyProof, coordKey, inclusionProof, leafHash, nodesCompletedBy, rootHash, type NodeSource } from "./merkle";
import { noteKeyFromSeed, signNote } from "./note";
import { leafHashOf as hl, verifyConsistency, verifyInclusion } from "../../tests/tlog-check";

// Known answers: transparency-dev/merkle testonly/constants.go (RFC 6962 = RFC 9162 hashing).
const LEAVES = knownRoots.leaves.map((h) => Buffer.from(h, "hex"));
const ROOTS = knownRoots.roots;
const LEVEL1 = ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
  "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a", "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0"];

/** The nodes the log stores, built the way integrate() builds them, leaf by leaf. */
function buildStore(leaves: readonly Uint8Array[]) {
  const nodes = new Map<string, string>();
  leaves.forEach((leaf, i) => {
    for (const n of nodesCompletedBy(i, leafHash(leaf), (c) => nodes.get(coordKey(c))!)) nodes.set(coordKey(n.coord), n.hash);
  });
  const source: NodeSource = async () => nodes;
  return { nodes, source };
}

const buf = (hex: string[]) => hex.map((x) => Buffer.from(x, "hex"));

describe("the log's Merkle tree (RFC 9162)", () => {
  it("hashes leaves and nodes and makes the known roots of trees of 0 to 8 leaves", async () => {
    for (let n = 0; n <= 8; n++) expect(await rootHash(n, buildStore(LEAVES.slice(0, n)).source)).toBe(ROOTS[n]);
    const { nodes } = buildStore(LEAVES);
    expect([0, 1, 2, 3].map((i) => nodes.get(`1:${i}`))).toEqual(LEVEL1);
    expect(nodes.get("0:0")).toBe("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
  });

  it("makes inclusion proofs an independent RFC 9162 verifier accepts, and only for the right leaf", async () => {
    const leaves = Array.from({ length: 37 }, (_, i) => Buffer.from(`leaf ${i}`));
    const { source } = buildStore(leaves);
    for (let size = 1; size <= leaves.length; size++) {
      const root = Buffer.from(await rootHash(size, source), "hex");
      for (let i = 0; i < size; i++) {
        const proof = buf(await inclusionProof(i, size, source));
        expect(verifyInclusion(i, size, hl(leaves[i]!), proof, root), `leaf ${i} of ${size}`).toBe(true);
        if (size > 1) expect(verifyInclusion((i + 1) % size, size, hl(leaves[i]!), proof, root)).toBe(false);
      }
    }
    await expect(inclusionProof(5, 5, source)).rejects.toThrow(RangeError);
  });

  it("makes consistency proofs between every pair of sizes that the verifier accepts", async () => {
    const leaves = Array.from({ length: 21 }, (_, i) => Buffer.from(`entry ${i}`));
    const { source } = buildStore(leaves);
    const roots = await Promise.all(Array.from({ length: 22 }, (_, n) => rootHash(n, source)));
    for (let a = 1; a <= 21; a++) {
      for (let b = a; b <= 21; b++) {
        const proof = buf(await consistencyProof(a, b, source));
        expect(verifyConsistency(a, b, Buffer.from(roots[a]!, "hex"), Buffer.from(roots[b]!, "hex"), proof), `${a} → ${b}`).toBe(true);
        if (b > a) expect(verifyConsistency(a, b, Buffer.from(roots[a === 1 ? 2 : a - 1]!, "hex"), Buffer.from(roots[b]!, "hex"), proof)).toBe(false);
      }
    }
  });
});

describe("signed notes (C2SP signed-note)", () => {
  // golang.org/x/mod/sumdb/note note_test.go: the PeterNeumann key and its signature of this text.
  const seed = Buffer.from("AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz", "base64").subarray(1);
  const text = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";

  it("signs the known note exactly as the reference does, with the known verifier key", () => {
    const key = noteKeyFromSeed("PeterNeumann", seed);
    expect(key.vkey).toBe("PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW");
    expect(signNote(text, key)).toBe(`${text}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`);
  });

  it("signs over the text alone: node:crypto verifies it with the public key from the vkey", () => {
    const key = noteKeyFromSeed("example.com/log", seed);
    const note = signNote("example.com/log\n3\nAAAA\n", key);
    const [body, sigLine] = note.split("\n\n");
    const raw = Buffer.from(sigLine!.trim().split(" ").at(-1)!, "base64");
    expect(raw.subarray(0, 4)).toEqual(key.keyHash);
    const pub = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(key.vkey.split("+").slice(2).join("+"), "base64").subarray(1).toString("base64url") }, format: "jwk" });
    expect(nodeVerify(null, Buffer.from(`${body}\n`), pub, raw.subarray(4))).toBe(true);
    expect(nodeVerify(null, Buffer.from(`${body}x\n`), pub, raw.subarray(4))).toBe(false);
  });
});
