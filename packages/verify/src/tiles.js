// C2SP tlog-tiles (tile height 8): paths, hash tiles, entry bundles, and a node reader
// that answers any perfect subtree hash of a tree of a given size from the tiles.
// https://c2sp.org/tlog-tiles
import { InputError, httpGet } from "./io.js";
import { HASH_SIZE, nodeHash } from "./merkle.js";

export const TILE_WIDTH = 256;
const HEIGHT = 8;

/**
 * The tile index as path segments: 3-digit groups, all but the last prefixed with "x".
 * 1234067 → "x001/x234/067", 5 → "005".
 * @param {number} n
 */
export function indexPath(n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`bad tile index ${n}`);
  const digits = String(n);
  const groups = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end).padStart(3, "0"));
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join("/");
}

/** @param {number} level tile level @param {number} n @param {number} width */
export const tilePath = (level, n, width) => `tile/${level}/${indexPath(n)}${width < TILE_WIDTH ? `.p/${width}` : ""}`;

/** @param {number} n @param {number} width */
export const entriesPath = (n, width) => `tile/entries/${indexPath(n)}${width < TILE_WIDTH ? `.p/${width}` : ""}`;

/**
 * Width of tile `n` at tile level `level` in a tree of `size` (0 when it has no nodes).
 * @param {number} level @param {number} n @param {number} size
 */
export function tileWidth(level, n, size) {
  const nodes = Math.floor(size / TILE_WIDTH ** level);
  return Math.max(0, Math.min(TILE_WIDTH, nodes - n * TILE_WIDTH));
}

/**
 * Splits an entry bundle: each entry is a 2-byte big-endian length and that many bytes.
 * @param {Uint8Array} body @param {number} width how many entries it must hold
 * @returns {Uint8Array[]}
 */
export function parseBundle(body, width) {
  const out = [];
  let at = 0;
  while (at < body.length && out.length < width) {
    if (at + 2 > body.length) throw new Error(`entry ${out.length} has a truncated length`);
    const len = (/** @type {number} */ (body[at]) << 8) | /** @type {number} */ (body[at + 1]);
    if (at + 2 + len > body.length) throw new Error(`entry ${out.length} is cut short (${len} bytes announced)`);
    out.push(body.slice(at + 2, at + 2 + len));
    at += 2 + len;
  }
  if (out.length !== width) throw new Error(`the bundle holds ${out.length} entries, not ${width}`);
  if (at !== body.length) throw new Error(`the bundle has ${body.length - at} bytes after its ${width} entries`);
  return out;
}

/**
 * Fetches tiles and entry bundles of a log under `<base>/log/`. A partial tile that is
 * gone (404) is read from the full tile that replaced it.
 */
export class TileReader {
  /** @param {string} base the service's base URL (the log is at <base>/log/) */
  constructor(base) {
    this.logUrl = `${base.replace(/\/+$/, "")}/log/`;
    /** @type {Map<string, Uint8Array>} */
    this.cache = new Map();
    this.fetched = 0;
  }

  /**
   * @param {(w: number) => string} pathFor @param {number} width
   * @returns {Promise<{ body: Uint8Array, width: number }>} the body and the width it was served at
   */
  async #get(pathFor, width) {
    const url = this.logUrl + pathFor(width);
    const res = await httpGet(url);
    this.fetched++;
    if (res.status === 200) return { body: res.body, width };
    if (res.status === 404 && width < TILE_WIDTH) {
      const full = await httpGet(this.logUrl + pathFor(TILE_WIDTH));
      this.fetched++;
      if (full.status === 200) return { body: full.body, width: TILE_WIDTH };
    }
    throw new InputError(`GET ${url} answered ${res.status}`);
  }

  /**
   * The first `width` hashes of hash tile (level, n).
   * @param {number} level @param {number} n @param {number} width @returns {Promise<Uint8Array[]>}
   */
  async hashTile(level, n, width) {
    const key = `${level}/${n}/${width}`;
    let body = this.cache.get(key);
    if (!body) {
      const got = await this.#get((w) => tilePath(level, n, w), width);
      if (got.body.length !== got.width * HASH_SIZE) {
        throw new InputError(`tile ${tilePath(level, n, got.width)} is ${got.body.length} bytes, not ${got.width} hashes of ${HASH_SIZE}`);
      }
      body = got.body.slice(0, width * HASH_SIZE);
      this.cache.set(key, body);
    }
    const hashes = [];
    for (let i = 0; i < width; i++) hashes.push(body.slice(i * HASH_SIZE, (i + 1) * HASH_SIZE));
    return hashes;
  }

  /**
   * The entries of bundle n (the first `width`).
   * @param {number} n @param {number} width @returns {Promise<Uint8Array[]>}
   */
  async bundle(n, width) {
    const got = await this.#get((w) => entriesPath(n, w), width);
    try {
      return parseBundle(got.body, got.width).slice(0, width);
    } catch (e) {
      throw new InputError(`entry bundle ${entriesPath(n, got.width)}: ${/** @type {Error} */ (e).message}`);
    }
  }

  /**
   * Reads perfect subtree hashes of the tree of `size` (a merkle.NodeReader).
   * @param {number} size
   * @returns {(level: number, index: number) => Promise<Uint8Array>}
   */
  nodeReader(size) {
    return async (level, index) => {
      const tileLevel = Math.floor(level / HEIGHT);
      const below = 2 ** (level % HEIGHT); // nodes of the tile's level under this one
      const first = index * below;
      const n = Math.floor(first / TILE_WIDTH);
      const width = tileWidth(tileLevel, n, size);
      const offset = first - n * TILE_WIDTH;
      if (offset + below > width) throw new RangeError(`node ${level}/${index} is not complete in a tree of ${size}`);
      let hashes = (await this.hashTile(tileLevel, n, width)).slice(offset, offset + below);
      while (hashes.length > 1) {
        const up = [];
        for (let i = 0; i < hashes.length; i += 2) up.push(nodeHash(/** @type {Uint8Array} */ (hashes[i]), /** @type {Uint8Array} */ (hashes[i + 1])));
        hashes = up;
      }
      return /** @type {Uint8Array} */ (hashes[0]);
    };
  }
}
