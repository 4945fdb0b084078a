// A second, independent implementation of what the tests check the package against: the
// RFC 9162 tree, C2SP tiles and signed notes, and the service's signed answers, written
// straight from the specs with node:crypto and the `canonicalize` package (the package
// itself uses json-canonicalize). Nothing here imports from ../src.
import { createHash, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import canonicalize from "canonicalize";

const sha = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
export const leafHashOf = (leaf: string | Buffer) => sha(Buffer.from([0]), Buffer.from(leaf));
const node = (l: Buffer, r: Buffer) => sha(Buffer.from([1]), l, r);
const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1); // largest power of two below n

/** MTH over leaf hashes (RFC 9162 §2.1.1). */
export function mth(hashes: Buffer[]): Buffer {
  if (hashes.length === 0) return sha();
  if (hashes.length === 1) return hashes[0]!;
  const k = split(hashes.length);
  return node(mth(hashes.slice(0, k)), mth(hashes.slice(k)));
}

/** PATH(m, D[n]) (RFC 9162 §2.1.3.1). */
export function path(m: number, hashes: Buffer[]): Buffer[] {
  if (hashes.length <= 1) return [];
  const k = split(hashes.length);
  return m < k ? [...path(m, hashes.slice(0, k)), mth(hashes.slice(k))] : [...path(m - k, hashes.slice(k)), mth(hashes.slice(0, k))];
}

/** PROOF(m, D[n]) (RFC 9162 §2.1.4.1). */
export function proof(m: number, hashes: Buffer[]): Buffer[] {
  const sub = (m: number, d: Buffer[], b: boolean): Buffer[] => {
    if (m === d.length) return b ? [] : [mth(d)];
    const k = split(d.length);
    return m <= k ? [...sub(m, d.slice(0, k), b), mth(d.slice(k))] : [...sub(m - k, d.slice(k), false), mth(d.slice(0, k))];
  };
  return sub(m, hashes, true);
}

/** A PRS leaf: canonical JSON of the six fields (keys sorted, ASCII strings only). */
export function leaf(f: { verification_id: string | null; event: string; status: string; at: string; environment?: string; payload_sha256?: string }) {
  return canonicalize({ payload_sha256: "ab".repeat(32), environment: "live", ...f }) as string;
}

export type NoteKey = { name: string; privateKey: KeyObject; raw: Buffer; vkey: string; hash: Buffer };

export function noteKey(name: string): NoteKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url");
  const hash = sha(Buffer.from(`${name}\n`), Buffer.from([1]), raw).subarray(0, 4);
  return { name, privateKey, raw, hash, vkey: `${name}+${hash.toString("hex")}+${Buffer.concat([Buffer.from([1]), raw]).toString("base64")}` };
}

export function signedNote(text: string, key: NoteKey) {
  const sig = sign(null, Buffer.from(text), key.privateKey);
  return `${text}\n— ${key.name} ${Buffer.concat([key.hash, sig]).toString("base64")}\n`;
}

export const checkpointOf = (origin: string, leaves: string[], key: NoteKey) =>
  signedNote(`${origin}\n${leaves.length}\n${mth(leaves.map(leafHashOf)).toString("base64")}\n`, key);

const indexPath = (n: number) => {
  const groups = String(n).padStart(Math.ceil(String(n).length / 3) * 3, "0").match(/.{3}/g)!;
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join("/");
};

/** Every tile and entry bundle of a tree (C2SP tlog-tiles, height 8), path → bytes. */
export function tilesOf(leaves: string[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const suffix = (w: number) => (w < 256 ? `.p/${w}` : "");
  for (let n = 0; n * 256 < leaves.length; n++) {
    const chunk = leaves.slice(n * 256, n * 256 + 256);
    files.set(`tile/entries/${indexPath(n)}${suffix(chunk.length)}`, Buffer.concat(chunk.flatMap((l) => [Buffer.from([Buffer.byteLength(l) >> 8, Buffer.byteLength(l) & 255]), Buffer.from(l)])));
  }
  let level: Buffer[] = leaves.map(leafHashOf); // hashes at tree level 8·L
  for (let L = 0; level.length > 0; L++) {
    for (let n = 0; n * 256 < level.length; n++) {
      const chunk = level.slice(n * 256, n * 256 + 256);
      files.set(`tile/${L}/${indexPath(n)}${suffix(chunk.length)}`, Buffer.concat(chunk));
    }
    const up: Buffer[] = [];
    for (let i = 0; (i + 1) * 256 <= level.length; i++) up.push(mth(level.slice(i * 256, (i + 1) * 256)));
    level = up;
  }
  return files;
}

/** The service's JWKS and its way of signing an answer. */
export function serviceKey(kid = "prs-test-01") {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const jwk = { kty: "OKP", crv: "Ed25519", x: publicKey.export({ format: "jwk" }).x as string, kid, use: "sig", alg: "EdDSA" };
  const signWith = (fields: Record<string, unknown>, field: string): Record<string, unknown> => {
    const body = { ...fields, signing_key_id: kid };
    return { ...body, [field]: sign(null, Buffer.from(canonicalize(body) as string), privateKey).toString("base64url") };
  };
  return { jwks: { keys: [jwk] }, jwk, kid, signWith, privateKey };
}
