import { createHash, createPrivateKey, randomBytes, sign as nodeSign, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as ed from "@noble/ed25519";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import { verifyEd25519Strict } from "./ed25519-strict";

// noble needs a synchronous SHA-512; node's native one is the fastest well-kept choice.
ed.hashes.sha512 = (msg: Uint8Array) => new Uint8Array(createHash("sha512").update(msg).digest());

export const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
export const fromB64url = (s: string) => new Uint8Array(Buffer.from(s, "base64url"));

const privateJwk = z.object({
  kty: z.literal("OKP"),
  crv: z.literal("Ed25519"),
  d: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional(),
  kid: z.string().min(1).max(100),
  created_at: z.string().optional(),
});
type PrivateJwk = z.infer<typeof privateJwk>;

/**
 * `live` keys sign everything live (the JWKS, did:web:<host>); `sandbox` keys sign only sandbox
 * credentials (did:web:<host>:sandbox) and are never in the JWKS or the live DID document.
 */
export type KeyEnvironment = "live" | "sandbox";

export type SigningKey = {
  kid: string; secret: Uint8Array; publicKey: Uint8Array; x: string; environment: KeyEnvironment;
  /** The same key as an OpenSSL object: Ed25519 is deterministic, so signatures are identical to noble's at ~9× the speed. */
  privateObject: KeyObject;
};
type Keyring = { keys: SigningKey[]; active: SigningKey; byKid: Map<string, SigningKey>; mtimeMs: number };
type ActiveFor = { version: number; key: SigningKey };
type Local = Omit<Keyring, "active"> & {
  newest: SigningKey; activeFor?: ActiveFor;
  /** The sandbox twin of each key, in the same order (sandboxTwin). */
  sandbox: SigningKey[]; sandboxActiveFor?: ActiveFor;
};

/**
 * The published key set (the `signing_keys` table, lib/signing/published-keys.ts), once the
 * server has loaded it: kid → public key. Until then (scripts, data-layer tests) the newest
 * local key signs. Once loaded, a process signs only with a key found here — so it never
 * signs with a key other instances do not publish — and asks for its newer keys to be published.
 */
type Published = {
  byKid: Map<string, { x: string; publicKey: Uint8Array }>;
  /** The published sandbox keys (kid → x): never in the JWKS, never checked by verifyBytes. */
  sandbox: Map<string, string>;
  version: number; publish: () => void;
};

const g = globalThis as unknown as {
  __prsKeyring?: Local; __prsKeyringCheckedAt?: number; __prsPublished?: Published;
};

const keysFile = () => path.join(getEnv().dataDir, "signing-keys.json");

function keyOf(kid: string, secret: Uint8Array, environment: KeyEnvironment): SigningKey {
  const publicKey = ed.getPublicKey(secret);
  const x = b64url(publicKey);
  const privateObject = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d: b64url(secret), x }, format: "jwk" });
  return { kid, secret, publicKey, x, environment, privateObject };
}

function toKey(j: PrivateJwk): SigningKey {
  const key = keyOf(j.kid, fromB64url(j.d), "live");
  if (j.x && j.x !== key.x) throw new Error(`signing key ${j.kid}: x does not match d`);
  return key;
}

/** The prefix of a sandbox key's kid: `sbx-` and the kid of the live key it is derived from. */
export const SANDBOX_KID_PREFIX = "sbx-";
export const SANDBOX_KEY_INFO = "prs sandbox credential key v1";

/**
 * A live key's sandbox twin: an Ed25519 key whose secret is HKDF-SHA256 (RFC 5869) of the live
 * secret, no salt, info "prs sandbox credential key v1", 32 bytes; kid `sbx-<live kid>`. Every
 * process holding a live key derives the same twin, so the sandbox key set follows the live one
 * (rotation, rolling restarts) with no secret or setting of its own, and HKDF is one-way: the
 * sandbox key reveals nothing of the live one.
 */
export function sandboxTwin(live: SigningKey): SigningKey {
  const secret = hkdf(sha256, live.secret, undefined, new TextEncoder().encode(SANDBOX_KEY_INFO), 32);
  return keyOf(`${SANDBOX_KID_PREFIX}${live.kid}`, secret, "sandbox");
}

function newJwk(): PrivateJwk {
  const secret = randomBytes(32);
  const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
  const kid = `prs-${day}-${randomBytes(4).toString("hex")}`;
  return {
    kty: "OKP", crv: "Ed25519", kid, d: b64url(secret), x: b64url(ed.getPublicKey(secret)),
    created_at: new Date().toISOString(),
  };
}

function writeKeysFile(jwks: PrivateJwk[]) {
  const file = keysFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(jwks, null, 2) + "\n", { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

function readKeysFile(): { jwks: PrivateJwk[]; mtimeMs: number } {
  const file = keysFile();
  if (!fs.existsSync(file)) writeKeysFile([newJwk()]);
  const parsed = z.array(privateJwk).min(1).parse(JSON.parse(fs.readFileSync(file, "utf8")));
  return { jwks: parsed, mtimeMs: fs.statSync(file).mtimeMs };
}

function build(jwks: PrivateJwk[], mtimeMs: number): Local {
  const keys = jwks.map(toKey);
  const byKid = new Map(keys.map((k) => [k.kid, k]));
  if (byKid.size !== keys.length) throw new Error("signing keys: duplicate kid");
  const sandbox = keys.map(sandboxTwin);
  const clash = sandbox.find((k) => byKid.has(k.kid));
  if (clash) throw new Error(`signing keys: kid ${clash.kid} is the sandbox key of another key; give it another kid`);
  // The last key is the newest; earlier ones stay published so old signatures verify.
  return { keys, newest: keys[keys.length - 1]!, byKid, mtimeMs, sandbox };
}

function load(): Local {
  const fromEnv = getEnv().SIGNING_KEYS;
  if (fromEnv) return build(z.array(privateJwk).min(1).parse(JSON.parse(fromEnv)), 0);
  const { jwks, mtimeMs } = readKeysFile();
  return build(jwks, mtimeMs);
}

/**
 * The keyring, reloaded when another process (the admin CLI) rotated the keys file. `active`
 * is the newest key — once the published set is loaded, the newest key that is published.
 */
export function keyring(): Keyring {
  const local = localKeyring();
  return { keys: local.keys, byKid: local.byKid, mtimeMs: local.mtimeMs, active: activeOf(local) };
}

/** The private keys this process holds (SIGNING_KEYS or the keys file). */
export function localKeys(): readonly SigningKey[] {
  return localKeyring().keys;
}

/** The sandbox twins of this process's keys (sandboxTwin), in the same order. */
export function localSandboxKeys(): readonly SigningKey[] {
  return localKeyring().sandbox;
}

/**
 * The key that signs sandbox credentials: the twin of the newest local key whose twin is
 * published (a key and its twin are published together), chosen like the live active key.
 */
export function sandboxSigningKey(): SigningKey {
  const local = localKeyring();
  return pickActive(local.sandbox, (pub) => pub.sandbox, local.sandboxActiveFor, (a) => { local.sandboxActiveFor = a; });
}

function activeOf(local: Local): SigningKey {
  return pickActive(local.keys, (pub) => pub.byKid, local.activeFor, (a) => { local.activeFor = a; });
}

/** The newest of `keys` that is published (all of them before the published set is loaded). */
function pickActive(
  keys: readonly SigningKey[], published: (pub: Published) => Map<string, unknown>,
  cached: ActiveFor | undefined, remember: (a: ActiveFor) => void,
): SigningKey {
  const newest = keys[keys.length - 1]!;
  const pub = g.__prsPublished;
  if (!pub) return newest;
  if (cached?.version === pub.version) return cached.key;
  const set = published(pub);
  let key: SigningKey | undefined;
  for (let i = keys.length - 1; i >= 0 && !key; i--) if (set.has(keys[i]!.kid)) key = keys[i];
  if (key !== newest) pub.publish(); // a newer key (a rotation): publish it, then sign with it
  if (!key) throw new Error(`no ${newest.environment} signing key of this process is published yet`);
  remember({ version: pub.version, key });
  return key;
}

/** Called with the published set whenever it is (re)loaded from the database. */
export function setPublishedKeys(rows: readonly { kid: string; x: string; environment?: KeyEnvironment }[], publish: () => void) {
  const live = rows.filter((r) => (r.environment ?? "live") === "live");
  const byKid = new Map(live.map((r) => [r.kid, { x: r.x, publicKey: fromB64url(r.x) }]));
  const sandbox = new Map(rows.filter((r) => r.environment === "sandbox").map((r) => [r.kid, r.x]));
  g.__prsPublished = { byKid, sandbox, version: (g.__prsPublished?.version ?? 0) + 1, publish };
}

export const publishedKeysLoaded = () => g.__prsPublished !== undefined;

function localKeyring(): Local {
  const now = Date.now();
  if (g.__prsKeyring && !getEnv().SIGNING_KEYS && now - (g.__prsKeyringCheckedAt ?? 0) > 1000) {
    g.__prsKeyringCheckedAt = now;
    try {
      if (fs.statSync(keysFile()).mtimeMs !== g.__prsKeyring.mtimeMs) g.__prsKeyring = undefined;
    } catch {
      g.__prsKeyring = undefined;
    }
  }
  g.__prsKeyring ??= load();
  return g.__prsKeyring;
}

export class RotationUnavailable extends Error {}

/** Add a new active key; retired keys stay published. */
export function rotateSigningKey(): { kid: string } {
  if (getEnv().SIGNING_KEYS) {
    throw new RotationUnavailable(
      "Signing keys come from SIGNING_KEYS: append a new private JWK to the array (the last one is active) and restart.",
    );
  }
  const { jwks } = readKeysFile();
  const next = newJwk();
  writeKeysFile([...jwks, next]);
  g.__prsKeyring = undefined;
  return { kid: next.kid };
}

/** The JWKS: the published live set once loaded (every instance's keys), else this process's keys. Never a sandbox key. */
export function publicJwks() {
  const pub = g.__prsPublished;
  const keys = pub ? [...pub.byKid].map(([kid, { x }]) => ({ kid, x })) : localKeyring().keys;
  return { keys: keys.map((k) => ({ kty: "OKP", crv: "Ed25519", x: k.x, kid: k.kid, use: "sig", alg: "EdDSA" })) };
}

/** Ed25519 over `message`. Keys are derived and generated with @noble/ed25519; the hot path signs through OpenSSL. */
export function signBytes(message: Uint8Array, k: SigningKey = keyring().active): { kid: string; signature: string } {
  return { kid: k.kid, signature: b64url(nodeSign(null, message, k.privateObject)) };
}

/** A signature of ours, checked like any other Ed25519 signature: strictly (lib/signing/ed25519-strict.ts). */
export function verifyBytes(kid: string, message: Uint8Array, signature: string): boolean {
  const publicKey = localKeyring().byKid.get(kid)?.publicKey ?? g.__prsPublished?.byKid.get(kid)?.publicKey;
  if (!publicKey) return false;
  return verifyEd25519Strict(fromB64url(signature), message, publicKey);
}
