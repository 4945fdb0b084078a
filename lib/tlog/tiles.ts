/**
 * C2SP tlog-tiles paths: `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`, with N written
 * in groups of three digits, all but the last prefixed with `x` (1234067 → x001/x234/067).
 * Null for anything else (answered 404).
 */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;

export type TileRef = { kind: "hashes"; level: number; index: number; width: number | null } | { kind: "entries"; index: number; width: number | null };

export function parseTilePath(parts: readonly string[]): TileRef | null {
  if (parts.length < 2) return null;
  const [first, ...rest] = parts;
  let width: number | null = null;
  let segs = rest;
  const last = segs.at(-1)!;
  const beforeLast = segs.at(-2);
  if (beforeLast?.endsWith(".p")) {
    if (!/^[1-9][0-9]{0,2}$/.test(last) || Number(last) >= TILE_WIDTH) return null;
    width = Number(last);
    segs = [...segs.slice(0, -2), beforeLast.slice(0, -2)];
  }
  if (segs.length === 0 || segs.length > 6) return null;
  let index = 0;
  for (const [i, s] of segs.entries()) {
    const m = (i < segs.length - 1 ? /^x([0-9]{3})$/ : /^([0-9]{3})$/).exec(s);
    if (!m) return null;
    index = index * 1000 + Number(m[1]);
  }
  if (first === "entries") return { kind: "entries", index, width };
  if (!/^(0|[1-9][0-9]?)$/.test(first!) || Number(first) * TILE_HEIGHT > 63) return null;
  return { kind: "hashes", level: Number(first), index, width };
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function entryBundle(leaves: readonly string[]): Buffer {
  return Buffer.concat(leaves.flatMap((l) => {
    const b = Buffer.from(l, "utf8");
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    return [len, b];
  }));
}
