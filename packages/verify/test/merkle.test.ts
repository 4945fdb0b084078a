import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toHex } from "../src/bytes.js";
import { CompactRange, consistencyProof, EMPTY_ROOT, inclusionProof, leafHash, nodeHash, rootOf, verifyConsistency, verifyInclusion } from "../src/merkle.js";
import { entriesPath, indexPath, parseBundle, tilePath, tileWidth } from "../src/tiles.js";

const VECTORS = path.resolve(import.meta.dirname, "../../../tests/vectors/merkle");
const b64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? jsonFiles(p) : name.endsWith(".json") ? [p] : [];
  });
}

type InclusionProbe = { leafIdx: number; treeSize: number; root: string; leafHash: string; proof: string[] | null; desc: string; wantErr: boolean };
type ConsistencyProbe = { size1: number; size2: number; root1: string; root2: string; proof: string[] | null; desc: string; wantErr: boolean };

describe("transparency-dev/merkle vectors", () => {
  const inclusion = jsonFiles(path.join(VECTORS, "inclusion"));
  const consistency = jsonFiles(path.join(VECTORS, "consistency"));

  it("are all there", () => {
    expect(inclusion.length + consistency.length).toBe(196);
  });

  it.each(inclusion.map((f) => [path.relative(VECTORS, f), f]))("inclusion %s", (_name, file) => {
    const p = JSON.parse(readFileSync(file, "utf8")) as InclusionProbe;
    const r = verifyInclusion(p.leafIdx, p.treeSize, b64(p.leafHash), (p.proof ?? []).map(b64), b64(p.root));
    expect(r.ok, p.desc).toBe(!p.wantErr);
  });

  it.each(consistency.map((f) => [path.relative(VECTORS, f), f]))("consistency %s", (_name, file) => {
    const p = JSON.parse(readFileSync(file, "utf8")) as ConsistencyProbe;
    const r = verifyConsistency(p.size1, p.size2, (p.proof ?? []).map(b64), b64(p.root1), b64(p.root2));
    expect(r.ok, p.desc).toBe(!p.wantErr);
  });
});

describe("known-answer roots (RFC 6962 test leaves)", () => {
  const known = JSON.parse(readFileSync(path.join(VECTORS, "roots.json"), "utf8")) as { leaves: string[]; roots: string[] };
  const leaves = known.leaves.map((h) => new Uint8Array(Buffer.from(h, "hex")));
  const roots = known.roots;
  it.each(roots.map((r, n) => [n, r]))("size %i", (n, root) => {
    expect(toHex(rootOf(leaves.slice(0, n as number).map(leafHash)))).toBe(root);
  });
  it("the empty tree's root is SHA-256 of nothing", () => expect(toHex(EMPTY_ROOT)).toBe(roots[0]));
});

describe("proofs built from subtree hashes", () => {
  // Leaf hashes of a tree of 70 and an in-memory reader of its perfect subtrees.
  const leaves = Array.from({ length: 70 }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${i}`)));
  const node = async (level: number, index: number) => rootOf(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level));

  it("inclusion proofs verify for every leaf of every size up to 70, and fail at the wrong index", async () => {
    for (let n = 1; n <= 70; n += 3) {
      const root = rootOf(leaves.slice(0, n));
      for (let m = 0; m < n; m++) {
        const proof = await inclusionProof(node, m, n);
        expect(verifyInclusion(m, n, leaves[m]!, proof, root).ok).toBe(true);
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, leaves[m]!, proof, root).ok).toBe(false);
      }
    }
  });

  it("consistency proofs verify between all sizes, and a changed leaf breaks them", async () => {
    for (let n = 1; n <= 70; n += 5) {
      for (let m = 1; m <= n; m++) {
        const proof = await consistencyProof(node, m, n);
        expect(verifyConsistency(m, n, proof, rootOf(leaves.slice(0, m)), rootOf(leaves.slice(0, n))).ok).toBe(true);
        if (m < n) {
          // The new tree rewrote the old tree's last leaf: its own proof cannot link the two.
          const forked = [...leaves.slice(0, n)];
          forked[m - 1] = leafHash(new TextEncoder().encode("forked"));
          const forkedNode = async (level: number, index: number) => rootOf(forked.slice(index * 2 ** level, (index + 1) * 2 ** level));
          const forkProof = await consistencyProof(forkedNode, m, n);
          expect(verifyConsistency(m, n, forkProof, rootOf(leaves.slice(0, m)), rootOf(forked)).ok).toBe(false);
        }
      }
    }
  });

  it("a compact range restored from its hashes keeps growing to the same roots", () => {
    const a = new CompactRange();
    leaves.slice(0, 45).forEach((h) => a.append(h));
    const b = new CompactRange(45, a.hashes());
    leaves.slice(45).forEach((h) => b.append(h));
    expect(toHex(b.root())).toBe(toHex(rootOf(leaves)));
    expect(() => new CompactRange(45, a.hashes().slice(1))).toThrow();
    expect(toHex(nodeHash(leaves[0]!, leaves[1]!))).toBe(toHex(rootOf(leaves.slice(0, 2))));
  });
});

describe("tiles", () => {
  it("writes indexes in 3-digit groups", () => {
    expect(indexPath(1234067)).toBe("x001/x234/067");
    expect(indexPath(5)).toBe("005");
    expect(indexPath(1000)).toBe("x001/000");
    expect(tilePath(0, 5, 256)).toBe("tile/0/005");
    expect(tilePath(1, 1234067, 17)).toBe("tile/1/x001/x234/067.p/17");
    expect(entriesPath(2, 1)).toBe("tile/entries/002.p/1");
  });
  it("knows tile widths", () => {
    expect(tileWidth(0, 0, 300)).toBe(256);
    expect(tileWidth(0, 1, 300)).toBe(44);
    expect(tileWidth(1, 0, 300)).toBe(1);
    expect(tileWidth(1, 0, 255)).toBe(0);
  });
  it("splits entry bundles and refuses malformed ones", () => {
    const bundle = Buffer.from([0, 2, 0x61, 0x62, 0, 0, 0, 1, 0x63]);
    expect(parseBundle(new Uint8Array(bundle), 3).map((e) => Buffer.from(e).toString())).toEqual(["ab", "", "c"]);
    expect(() => parseBundle(new Uint8Array(bundle), 2)).toThrow(/after its 2 entries/);
    expect(() => parseBundle(new Uint8Array(bundle), 4)).toThrow(/holds 3/);
    expect(() => parseBundle(new Uint8Array([0, 5, 1]), 1)).toThrow(/cut short/);
  });
});
