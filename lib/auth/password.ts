import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { getEnv } from "@/lib/env";

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

/**
 * Cost parameters for new hashes in service: N = 2^17, r = 8, p = 1 (OWASP's scrypt minimum), 128 MiB
 * per hash (128·N·r). Node refuses a hash needing more than `maxmem`, so it is set above
 * that. scrypt runs on libuv's thread pool (4 threads by default), so at most that many
 * hashes — 512 MiB — are in memory at once, however many sign-ins arrive.
 */
export const PASSWORD_COST = { N: 131072, r: 8, p: 1 } as const;
const KEYLEN = 32;
const MAXMEM = 256 * 1024 * 1024;
/** The weakest stored hash still accepted (every hash made before 2^17 was 2^15). */
export const MIN_N = 16384;

type Cost = { N: number; r: number; p: number };

/**
 * The cost of new hashes: PASSWORD_COST, or with PASSWORD_HASH_FAST=1 (test suites only,
 * refused with an https PUBLIC_BASE_URL and logged at start) the weakest cost still accepted,
 * 2^14, eight times cheaper — as Devise and Django lower theirs under test. Everything else
 * (padding, upgrades, the stored format) works the same at either cost.
 */
export const currentPasswordCost = (): Cost => (getEnv().PASSWORD_HASH_FAST === "1" ? { ...PASSWORD_COST, N: MIN_N } : PASSWORD_COST);

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

const memoryFor = (c: Cost) => Math.max(MAXMEM, 256 * c.N * c.r);

/** `scrypt$N$r$p$<salt b64url>$<hash b64url>`: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = currentPasswordCost();
  const salt = randomBytes(16);
  const hash = await scrypt(password.normalize("NFKC"), salt, KEYLEN, { N, r, p, maxmem: MAXMEM });
  return ["scrypt", N, r, p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

type Parsed = { cost: Cost; salt: Buffer; hash: Buffer };

function parse(stored: string | null | undefined): Parsed | null {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [, n, r, p, saltB64, hashB64] = parts;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(cost).every((v) => Number.isSafeInteger(v) && v > 0) || cost.N < MIN_N) return null;
  const hash = Buffer.from(hashB64!, "base64url");
  if (hash.length < 16) return null;
  return { cost, salt: Buffer.from(saltB64!, "base64url"), hash };
}

/** Made with less work than new hashes get now. */
const weaker = (c: Cost, now = currentPasswordCost()) => c.N < now.N && c.r === now.r && c.p === now.p;

/**
 * A wrong password against a weaker hash would answer sooner than an unknown account
 * (which costs one hash at today's N): spend the difference — scrypt at N_old, 2·N_old, …,
 * N/2 adds up to N − N_old, scrypt's work being linear in N — so a stored hash of an older
 * cost does not tell an attacker which addresses have accounts.
 */
async function padToCurrentCost(password: string, c: Cost) {
  const salt = randomBytes(16);
  for (let n = c.N; n < currentPasswordCost().N; n *= 2) {
    await scrypt(password, salt, KEYLEN, { N: n, r: c.r, p: c.p, maxmem: memoryFor(c) });
  }
}

export type PasswordCheck = { ok: false } | { ok: true; upgradedHash: string | null };

/**
 * Verify `password` against a stored hash. Constant-time compare; a missing or malformed
 * stored value never matches (and never throws), after costing one hash at today's
 * parameters so unknown accounts are not told apart by timing. When the password matches
 * a hash made with weaker parameters, `upgradedHash` is a fresh hash at today's for the
 * caller to store; a wrong password never produces one.
 */
export async function checkPassword(password: string, stored: string | null | undefined): Promise<PasswordCheck> {
  const parsed = parse(stored);
  if (!parsed) {
    await hashPassword(password);
    return { ok: false };
  }
  const { cost, salt, hash } = parsed;
  const normalized = password.normalize("NFKC");
  const actual = await scrypt(normalized, salt, hash.length, { ...cost, maxmem: memoryFor(cost) });
  const ok = timingSafeEqual(actual, hash);
  if (!ok) {
    if (weaker(cost)) await padToCurrentCost(normalized, cost);
    return { ok: false };
  }
  return { ok: true, upgradedHash: weaker(cost) ? await hashPassword(password) : null };
}

/** Whether `password` matches the stored hash (see `checkPassword`). */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  return (await checkPassword(password, stored)).ok;
}

/** The cost a stored hash was made with, or null if it is not one of ours. */
export const passwordCost = (stored: string | null | undefined): Cost | null => parse(stored)?.cost ?? null;
