// RFC 9162 (RFC 6962) Merkle trees: hashing, inclusion and consistency proof checks
// (§2.1.3.2, §2.1.4.2, in the form transparency-dev/merkle uses), proof building from
// subtree hashes, and a compact range (the right border of a growing tree).
// Sizes and indexes are JavaScript numbers (exact up to 2^53); the bit arithmetic of the
// proof checks runs on BigInt so sizes above 2^32 work too.
import { bytesEqual, concat, sha256, toHex } from "./bytes.js";

export const HASH_SIZE = 32;
const LEAF = Uint8Array.of(0);
const NODE = Uint8Array.of(1);

/** SHA-256 of the empty string: the root of the empty tree. */
export const EMPTY_ROOT = sha256(new Uint8Array(0));

/** @param {Uint8Array} leaf */
export const leafHash = (leaf) => sha256(concat(LEAF, leaf));

/** @param {Uint8Array} left @param {Uint8Array} right */
export const nodeHash = (left, right) => sha256(concat(NODE, left, right));

/** @typedef {{ ok: true } | { ok: false, error: string }} Outcome */
/** @type {Outcome} */
const OK = { ok: true };
/** @param {string} error @returns {{ ok: false, error: string }} */
const fail = (error) => ({ ok: false, error });

/** @param {bigint} x */
function bitLength(x) {
  let n = 0;
  while (x > 0n) {
    x >>= 1n;
    n++;
  }
  return n;
}
/** @param {bigint} x */
function onesCount(x) {
  let n = 0;
  for (; x > 0n; x >>= 1n) n += Number(x & 1n);
  return n;
}
/** @param {bigint} x (x > 0) */
function trailingZeros(x) {
  let n = 0;
  while ((x & 1n) === 0n) {
    x >>= 1n;
    n++;
  }
  return n;
}

/**
 * Where the paths to leaf `index` and leaf `size - 1` part: the number of proof hashes
 * below that point (inner) and above it (border).
 * @param {bigint} index @param {bigint} size
 */
function decompose(index, size) {
  const inner = bitLength(index ^ (size - 1n));
  return { inner, border: onesCount(index >> BigInt(inner)) };
}

/** @param {Uint8Array} seed @param {Uint8Array[]} proof @param {bigint} index */
function chainInner(seed, proof, index) {
  proof.forEach((h, i) => {
    seed = ((index >> BigInt(i)) & 1n) === 0n ? nodeHash(seed, h) : nodeHash(h, seed);
  });
  return seed;
}
/** Like chainInner, but only the hashes left of the path: the subtree as it was earlier. @param {Uint8Array} seed @param {Uint8Array[]} proof @param {bigint} index */
function chainInnerRight(seed, proof, index) {
  proof.forEach((h, i) => {
    if (((index >> BigInt(i)) & 1n) === 1n) seed = nodeHash(h, seed);
  });
  return seed;
}
/** @param {Uint8Array} seed @param {Uint8Array[]} proof */
function chainBorderRight(seed, proof) {
  for (const h of proof) seed = nodeHash(h, seed);
  return seed;
}

/** @param {number} n */
const isCount = (n) => Number.isSafeInteger(n) && n >= 0;

/**
 * The root an inclusion proof leads to, or why it leads nowhere.
 * @param {number} index @param {number} size @param {Uint8Array} leaf the leaf *hash*
 * @param {Uint8Array[]} proof
 * @returns {{ ok: true, root: Uint8Array } | { ok: false, error: string }}
 */
export function rootFromInclusionProof(index, size, leaf, proof) {
  if (!isCount(index) || !isCount(size)) return fail("index and size must be whole numbers");
  if (index >= size) return fail(`index ${index} is not below the tree size ${size}`);
  if (leaf.length !== HASH_SIZE) return fail(`the leaf hash is ${leaf.length} bytes, not ${HASH_SIZE}`);
  const i = BigInt(index);
  const { inner, border } = decompose(i, BigInt(size));
  if (proof.length !== inner + border) return fail(`the proof has ${proof.length} hashes; a leaf ${index} of a tree of ${size} needs ${inner + border}`);
  const bad = proof.findIndex((h) => h.length !== HASH_SIZE);
  if (bad >= 0) return fail(`proof hash ${bad} is ${proof[bad]?.length} bytes, not ${HASH_SIZE}`);
  const root = chainBorderRight(chainInner(leaf, proof.slice(0, inner), i), proof.slice(inner));
  return { ok: true, root };
}

/**
 * RFC 9162 §2.1.3.2: is the leaf with this hash at `index` in the tree of `size` with `root`?
 * @param {number} index @param {number} size @param {Uint8Array} leaf @param {Uint8Array[]} proof @param {Uint8Array} root
 * @returns {Outcome}
 */
export function verifyInclusion(index, size, leaf, proof, root) {
  const r = rootFromInclusionProof(index, size, leaf, proof);
  if (!r.ok) return r;
  return bytesEqual(r.root, root) ? OK : fail(`the proof leads to root ${toHex(r.root)}, not ${toHex(root)}`);
}

/**
 * RFC 9162 §2.1.4.2: is the tree of size1 with root1 a prefix of the tree of size2 with root2?
 * As transparency-dev/merkle: a proof from the empty tree is meaningless and refused (every
 * tree extends the empty one; callers that start from nothing need no proof).
 * @param {number} size1 @param {number} size2 @param {Uint8Array[]} proof @param {Uint8Array} root1 @param {Uint8Array} root2
 * @returns {Outcome}
 */
export function verifyConsistency(size1, size2, proof, root1, root2) {
  if (!isCount(size1) || !isCount(size2)) return fail("sizes must be whole numbers");
  if (size2 < size1) return fail(`the new size ${size2} is smaller than the old size ${size1}`);
  if (size1 === 0) return fail("a consistency proof from the empty tree is meaningless");
  if (size1 === size2) {
    if (proof.length > 0) return fail("the sizes are equal, so the proof must be empty");
    return bytesEqual(root1, root2) ? OK : fail(`same size ${size1} but different roots ${toHex(root1)} and ${toHex(root2)}`);
  }
  if (proof.length === 0) return fail("the proof is empty");
  const bad = proof.findIndex((h) => h.length !== HASH_SIZE);
  if (bad >= 0) return fail(`proof hash ${bad} is ${proof[bad]?.length} bytes, not ${HASH_SIZE}`);
  const s1 = BigInt(size1);
  let { inner, border } = decompose(s1 - 1n, BigInt(size2));
  const shift = trailingZeros(s1);
  inner -= shift;
  // Unless size1 is itself a power of two (its root a node of the new tree), the proof
  // starts with the hash of the largest such subtree on the old tree's right border.
  const fromRoot = s1 === 1n << BigInt(shift);
  const seed = fromRoot ? root1 : /** @type {Uint8Array} */ (proof[0]);
  const rest = proof.slice(fromRoot ? 0 : 1);
  if (rest.length !== inner + border) return fail(`the proof has ${proof.length} hashes; sizes ${size1} → ${size2} need ${(fromRoot ? 0 : 1) + inner + border}`);
  const mask = (s1 - 1n) >> BigInt(shift);
  const hash1 = chainBorderRight(chainInnerRight(seed, rest.slice(0, inner), mask), rest.slice(inner));
  if (!bytesEqual(hash1, root1)) return fail(`the proof leads to old root ${toHex(hash1)}, not ${toHex(root1)}`);
  const hash2 = chainBorderRight(chainInner(seed, rest.slice(0, inner), mask), rest.slice(inner));
  if (!bytesEqual(hash2, root2)) return fail(`the proof leads to new root ${toHex(hash2)}, not ${toHex(root2)}`);
  return OK;
}

/** Largest power of two below n (n > 1). @param {number} n */
function splitPoint(n) {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * Reads perfect subtrees: the hash of the node at `level` with `index` on that level (the
 * subtree over leaves index·2^level … (index+1)·2^level − 1).
 * @typedef {(level: number, index: number) => Promise<Uint8Array>} NodeReader
 */

/**
 * MTH(D[start : start+n]) for an aligned range, from perfect subtree hashes.
 * @param {NodeReader} node @param {number} start @param {number} n
 * @returns {Promise<Uint8Array>}
 */
export async function subtreeHash(node, start, n) {
  if (n === 0) return EMPTY_ROOT;
  const level = Math.log2(n); // exact for powers of two
  if (Number.isInteger(level) && start % n === 0) return node(level, start / n);
  const k = splitPoint(n);
  return nodeHash(await subtreeHash(node, start, k), await subtreeHash(node, start + k, n - k));
}

/**
 * RFC 9162 §2.1.4.1 PROOF(m, D[n]) built from subtree hashes (for 0 < m ≤ n).
 * @param {NodeReader} node @param {number} m @param {number} n
 * @returns {Promise<Uint8Array[]>}
 */
export async function consistencyProof(node, m, n) {
  if (!(m > 0 && m <= n)) throw new RangeError(`no consistency proof for sizes ${m} → ${n}`);
  /** @param {number} m @param {number} start @param {number} n @param {boolean} whole @returns {Promise<Uint8Array[]>} */
  const sub = async (m, start, n, whole) => {
    if (m === n) return whole ? [] : [await subtreeHash(node, start, n)];
    const k = splitPoint(n);
    if (m <= k) return [...(await sub(m, start, k, whole)), await subtreeHash(node, start + k, n - k)];
    return [...(await sub(m - k, start + k, n - k, false)), await subtreeHash(node, start, k)];
  };
  return sub(m, 0, n, true);
}

/**
 * RFC 9162 §2.1.3.1 PATH(m, D[n]) built from subtree hashes (for 0 ≤ m < n).
 * @param {NodeReader} node @param {number} m @param {number} n
 * @returns {Promise<Uint8Array[]>}
 */
export async function inclusionProof(node, m, n) {
  if (!(m >= 0 && m < n)) throw new RangeError(`no inclusion proof for leaf ${m} of a tree of ${n}`);
  /** @param {number} m @param {number} start @param {number} n @returns {Promise<Uint8Array[]>} */
  const path = async (m, start, n) => {
    if (n === 1) return [];
    const k = splitPoint(n);
    if (m < k) return [...(await path(m, start, k)), await subtreeHash(node, start + k, n - k)];
    return [...(await path(m - k, start + k, n - k)), await subtreeHash(node, start, k)];
  };
  return path(m, 0, n);
}

/**
 * The right border of a tree: the roots of its perfect subtrees, largest first. Leaves can
 * be appended and the root computed without the rest of the tree; a monitor keeps it
 * between runs to check new entries against the next checkpoint.
 */
export class CompactRange {
  /** @param {number} [size] @param {Uint8Array[]} [hashes] */
  constructor(size = 0, hashes = []) {
    const levels = [];
    for (let level = 52; level >= 0; level--) if (Math.floor(size / 2 ** level) % 2 === 1) levels.push(level);
    if (!isCount(size) || levels.length !== hashes.length || hashes.some((h) => h.length !== HASH_SIZE)) {
      throw new RangeError(`a tree of size ${size} has ${levels.length} border hashes of ${HASH_SIZE} bytes`);
    }
    this.size = size;
    /** @type {{ level: number, hash: Uint8Array }[]} */
    this.stack = levels.map((level, i) => ({ level, hash: /** @type {Uint8Array} */ (hashes[i]) }));
  }

  /** @param {Uint8Array} hash a leaf hash */
  append(hash) {
    let top = { level: 0, hash };
    for (let last = this.stack.at(-1); last && last.level === top.level; last = this.stack.at(-1)) {
      this.stack.pop();
      top = { level: top.level + 1, hash: nodeHash(last.hash, top.hash) };
    }
    this.stack.push(top);
    this.size++;
  }

  root() {
    if (this.stack.length === 0) return EMPTY_ROOT;
    let h = /** @type {Uint8Array} */ (this.stack.at(-1)?.hash);
    for (let i = this.stack.length - 2; i >= 0; i--) h = nodeHash(/** @type {{ hash: Uint8Array }} */ (this.stack[i]).hash, h);
    return h;
  }

  hashes() {
    return this.stack.map((s) => s.hash);
  }
}

/**
 * MTH of a list of leaf hashes (all in memory).
 * @param {Uint8Array[]} leafHashes
 */
export function rootOf(leafHashes) {
  const range = new CompactRange();
  for (const h of leafHashes) range.append(h);
  return range.root();
}
