import { createHash, createPublicKey, verify as nodeVerify } from "node:crypto";

/**
 * An independent check of the transparency log, written from RFC 9162 and C2SP with
 * node:crypto only — none of the service's code: leaf and node hashes, inclusion and
 * consistency proofs, and signed-note checkpoints against a vkey.
 */
const h = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
export const leafHashOf = (leaf: string | Buffer) => h(Buffer.from([0]), Buffer.isBuffer(leaf) ? leaf : Buffer.from(leaf, "utf8"));
export const nodeHashOf = (l: Buffer, r: Buffer) => h(Buffer.from([1]), l, r);

export function verifyInclusion(index: number, size: number, leafHash: Buffer, proof: Buffer[], root: Buffer): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHashOf(p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) { fn >>= 1; sn >>= 1; }
    } else r = nodeHashOf(r, p);
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree of size2 (root2) extends the tree of size1 (root1)? */
export function verifyConsistency(size1: number, size2: number, root1: Buffer, root2: Buffer, proof: Buffer[]): boolean {
  if (size1 === size2) return proof.length === 0 && root1.equals(root2);
  if (size1 === 0) return proof.length === 0;
  let path = [...proof];
  if ((size1 & (size1 - 1)) === 0) path = [root1, ...path];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) { fn >>= 1; sn >>= 1; }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHashOf(c, fr);
      sr = nodeHashOf(c, sr);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) { fn >>= 1; sn >>= 1; }
    } else sr = nodeHashOf(sr, c);
    fn >>= 1;
    sn >>= 1;
  }
  return fr.equals(root1) && sr.equals(root2) && sn === 0;
}

/** MTH over leaf hashes (RFC 9162 §2.1.1), by its recursive definition. */
export function rootOf(leafHashes: readonly Buffer[]): Buffer {
  if (leafHashes.length === 0) return h();
  if (leafHashes.length === 1) return leafHashes[0]!;
  let k = 1;
  while (k * 2 < leafHashes.length) k *= 2;
  return nodeHashOf(rootOf(leafHashes.slice(0, k)), rootOf(leafHashes.slice(k)));
}

export type Checkpoint = { origin: string; size: number; root: Buffer };

/** Parse and verify a C2SP signed note holding a checkpoint; throws when it does not verify. */
export function verifyCheckpoint(note: string, vkey: string): Checkpoint {
  // The key is base64 and may itself contain "+": split at the first two only.
  const [name, hashHex, ...rest] = vkey.trim().split("+");
  const keyB64 = rest.join("+");
  const keyBytes = Buffer.from(keyB64!, "base64");
  if (keyBytes[0] !== 1 || keyBytes.length !== 33) throw new Error("not an Ed25519 vkey");
  const pub = keyBytes.subarray(1);
  const keyHash = h(Buffer.from(`${name}\n`), Buffer.from([1]), pub).subarray(0, 4);
  if (keyHash.toString("hex") !== hashHex) throw new Error("vkey hash mismatch");
  const split = note.indexOf("\n\n");
  if (split < 0) throw new Error("no blank line in the note");
  const text = note.slice(0, split + 1);
  const sigLines = note.slice(split + 2).split("\n").filter(Boolean);
  const mine = sigLines.map((l) => /^\u2014 (\S+) (\S+)$/.exec(l)).find((m) => m && m[1] === name);
  if (!mine) throw new Error("no signature by this key");
  const raw = Buffer.from(mine[2]!, "base64");
  if (!raw.subarray(0, 4).equals(keyHash)) throw new Error("signature key hash mismatch");
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: pub.toString("base64url") }, format: "jwk" });
  if (!nodeVerify(null, Buffer.from(text, "utf8"), key, raw.subarray(4))) throw new Error("checkpoint signature does not verify");
  const [origin, size, root] = text.split("\n");
  return { origin: origin!, size: Number(size), root: Buffer.from(root!, "base64") };
}

/** Entry bundle (C2SP tlog-tiles): uint16 big-endian length, bytes; repeated. */
export function parseBundle(b: Buffer): string[] {
  const out: string[] = [];
  for (let i = 0; i < b.length;) {
    const n = b.readUInt16BE(i);
    out.push(b.subarray(i + 2, i + 2 + n).toString("utf8"));
    i += 2 + n;
  }
  return out;
}

/*
 * Tile coordinates and paths, written from the C2SP tlog-tiles spec (https://c2sp.org/tlog-tiles)
 * rather than from the service's code:
 *
 * - tiles have height 8: a tile holds up to 256 hashes; a level-L tile holds hashes of tree
 *   level 8·L, and tile N of a level holds that level's hashes N·256 … N·256+255;
 * - in a tree of `size` leaves, tree level h has floor(size / 2^h) complete nodes, so level L
 *   has floor(size / 256^L) hashes: full tiles of 256, and, when the count is no multiple of
 *   256, a last partial tile of the rest, addressed with the `.p/<W>` suffix (1 ≤ W < 256);
 * - the entry bundle N holds entries N·256 … (the level-0 leaves), with the same widths;
 * - N is written as zero-padded three-digit path elements, all but the last prefixed with
 *   `x` (the spec's example: 1234067 → x001/x234/067).
 */
export const TILE_WIDTH = 256;

/** The spec's index encoding, by chopping N's zero-padded decimal digits into threes. */
export function tileIndexPath(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a tile index: ${n}`);
  const digits = String(n);
  const padded = digits.padStart(Math.ceil(digits.length / 3) * 3, "0");
  const elements = padded.match(/[0-9]{3}/g)!;
  return elements.map((e, i) => (i + 1 < elements.length ? `x${e}` : e)).join("/");
}

export type TileCoord = { n: number; width: number; path: string };

/**
 * Every tile of `level` (a number, or "entries" for the entry bundles) a tree of `size`
 * leaves has, left to right, each with its width and its path under `/log/`.
 */
export function tilesOf(size: number, level: number | "entries"): TileCoord[] {
  const hashes = level === "entries" ? size : Math.floor(size / TILE_WIDTH ** level);
  const out: TileCoord[] = [];
  for (let first = 0, n = 0; first < hashes; first += TILE_WIDTH, n++) {
    const width = Math.min(TILE_WIDTH, hashes - first);
    out.push({ n, width, path: `tile/${level}/${tileIndexPath(n)}${width === TILE_WIDTH ? "" : `.p/${width}`}` });
  }
  return out;
}
