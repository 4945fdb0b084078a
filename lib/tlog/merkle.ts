import { createHash } from "node:crypto";

/**
 * RFC 9162 (§2.1) Merkle tree hashing and proofs over stored complete subtrees. A node
 * (level, idx) is the complete subtree of leaves [idx·2^level, (idx+1)·2^level); every other
 * range is split at the largest power of two below its size, as MTH does.
 */
export type Coord = { level: number; idx: number };
export type NodeSource = (coords: readonly Coord[]) => Promise<Map<string, string>>;

export const coordKey = (c: Coord) => `${c.level}:${c.idx}`;

export const sha256 = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};
export const leafHash = (leaf: Uint8Array | string): string =>
  sha256(Buffer.from([0]), typeof leaf === "string" ? Buffer.from(leaf, "utf8") : leaf).toString("hex");
export const nodeHash = (left: string, right: string): string =>
  sha256(Buffer.from([1]), Buffer.from(left, "hex"), Buffer.from(right, "hex")).toString("hex");
export const EMPTY_ROOT = sha256().toString("hex");

/** The largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isCompleteNode = (start: number, end: number) => {
  const size = end - start;
  return (size & (size - 1)) === 0 && start % size === 0;
};
const coordOf = (start: number, end: number): Coord => {
  const level = Math.log2(end - start);
  return { level, idx: start / 2 ** level };
};

/** The stored nodes a subtree hash of [start, end) is made of. */
function coordsOf(start: number, end: number, into: Coord[]) {
  if (isCompleteNode(start, end)) {
    into.push(coordOf(start, end));
    return;
  }
  const k = splitPoint(end - start);
  coordsOf(start, start + k, into);
  coordsOf(start + k, end, into);
}

function hashOf(start: number, end: number, nodes: Map<string, string>): string {
  if (isCompleteNode(start, end)) {
    const h = nodes.get(coordKey(coordOf(start, end)));
    if (!h) throw new Error(`log node ${coordKey(coordOf(start, end))} is missing`);
    return h;
  }
  const k = splitPoint(end - start);
  return nodeHash(hashOf(start, start + k, nodes), hashOf(start + k, end, nodes));
}

/** RFC 9162 PATH(m, D[start:end]) as ranges, leaf side first. */
function pathRanges(m: number, start: number, end: number, out: [number, number][]) {
  const n = end - start;
  if (n <= 1) return;
  const k = splitPoint(n);
  if (m < k) {
    pathRanges(m, start, start + k, out);
    out.push([start + k, end]);
  } else {
    pathRanges(m - k, start + k, end, out);
    out.push([start, start + k]);
  }
}

/** RFC 9162 SUBPROOF(m, D[start:end], b) as ranges. */
function subproofRanges(m: number, start: number, end: number, b: boolean, out: [number, number][]) {
  const n = end - start;
  if (m === n) {
    if (!b) out.push([start, end]);
    return;
  }
  const k = splitPoint(n);
  if (m <= k) {
    subproofRanges(m, start, start + k, b, out);
    out.push([start + k, end]);
  } else {
    subproofRanges(m - k, start + k, end, false, out);
    out.push([start, start + k]);
  }
}

async function hashesOf(ranges: readonly [number, number][], source: NodeSource): Promise<string[]> {
  const coords: Coord[] = [];
  for (const [s, e] of ranges) coordsOf(s, e, coords);
  const nodes = coords.length ? await source(coords) : new Map<string, string>();
  return ranges.map(([s, e]) => hashOf(s, e, nodes));
}

export async function rootHash(size: number, source: NodeSource): Promise<string> {
  if (size === 0) return EMPTY_ROOT;
  return (await hashesOf([[0, size]], source))[0]!;
}

/** The audit path of leaf `index` in the tree of `size` leaves (hex hashes, leaf side first). */
export async function inclusionProof(index: number, size: number, source: NodeSource): Promise<string[]> {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const ranges: [number, number][] = [];
  pathRanges(index, 0, size, ranges);
  return hashesOf(ranges, source);
}

/** The consistency proof from the tree of `from` leaves to the tree of `to` leaves. */
export async function consistencyProof(from: number, to: number, source: NodeSource): Promise<string[]> {
  if (!(from >= 0 && from <= to)) throw new RangeError(`no consistency proof from ${from} to ${to}`);
  if (from === 0 || from === to) return [];
  const ranges: [number, number][] = [];
  subproofRanges(from, 0, to, true, ranges);
  return hashesOf(ranges, source);
}

/**
 * The complete nodes that leaf `index` (hash `h`) finishes: itself, then each parent whose
 * left child is already known (`left(level, idx)`), as long as it is a right child.
 */
export function nodesCompletedBy(index: number, h: string, left: (c: Coord) => string): { coord: Coord; hash: string }[] {
  const out = [{ coord: { level: 0, idx: index }, hash: h }];
  let cur = h;
  let level = 0;
  let idx = index;
  while (idx % 2 === 1) {
    cur = nodeHash(left({ level, idx: idx - 1 }), cur);
    level++;
    idx = (idx - 1) / 2;
    out.push({ coord: { level, idx }, hash: cur });
  }
  return out;
}
