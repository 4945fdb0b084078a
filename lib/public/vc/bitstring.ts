import { gzipSync } from "node:zlib";

/** The W3C Bitstring Status List minimum (16 KB), which keeps a list from narrowing down whose bit is whose. */
export const LIST_BITS = 131_072;

/**
 * `encodedList` of a BitstringStatusList: the bitstring (index 0 is the most significant bit of
 * the first byte), GZIP-compressed, as multibase base64url without padding (`u…`).
 */
export function encodeList(setIndexes: Iterable<number>, bits = LIST_BITS): string {
  const bytes = new Uint8Array(bits / 8);
  for (const i of setIndexes) {
    if (!Number.isInteger(i) || i < 0 || i >= bits) throw new RangeError(`status list index ${i} out of range`);
    bytes[i >> 3]! |= 0x80 >> (i & 7);
  }
  return `u${gzipSync(bytes).toString("base64url")}`;
}
