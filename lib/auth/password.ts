import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** Cost parameters for new hashes. N = 2^15; 32 MiB per hash (128·N·r). */
const N = 32768;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** `scrypt$N$r$p$<salt b64url>$<hash b64url>`: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password.normalize("NFKC"), salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return ["scrypt", N, R, P, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/** Constant-time compare; a malformed stored value never matches (and never throws). */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    // Spend comparable time so unknown accounts are not told apart by timing.
    await hashPassword(password);
    return false;
  }
  const [, n, r, p, saltB64, hashB64] = parts;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((v) => Number.isSafeInteger(v) && v > 0) || params.N < 16384) return false;
  const expected = Buffer.from(hashB64!, "base64url");
  if (expected.length < 16) return false;
  const actual = await scrypt(password.normalize("NFKC"), Buffer.from(saltB64!, "base64url"), expected.length, {
    ...params, maxmem: Math.max(MAXMEM, 256 * params.N * params.r),
  });
  return timingSafeEqual(actual, expected);
}

/**
 * A short fingerprint of the stored hash, carried in the session JWT (which is encrypted).
 * When the password changes, sessions made before no longer match and are signed out.
 */
export function passwordVersion(stored: string | null | undefined): string {
  return createHash("sha256").update(`prs-session\0${stored ?? ""}`).digest("base64url").slice(0, 16);
}
