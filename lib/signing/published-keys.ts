import { asc, eq, inArray, sql } from "drizzle-orm";
import { signingKeys } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log/logger";
import { canonicalJson, sha256Hex } from "@/lib/signing/canonical";
import { appendLeaves, keyLeaf } from "@/lib/tlog/store";
import { localKeys, localSandboxKeys, setPublishedKeys, type KeyEnvironment } from "./keys";

/**
 * One key set for every instance on one database (docs/operations.md, "Signing keys"):
 * each process adds the public half of its keys to `signing_keys` before it signs with
 * them, and publishes — in its JWKS, and for checking signatures — every key in that table.
 * A process therefore never signs with a key the others do not publish, and a key added on
 * one instance (a rolling rotation) is published by all of them from that moment.
 *
 * Each key's sandbox twin (lib/signing/keys.ts, sandboxTwin) is published with it, in the same
 * transaction, with environment `sandbox`: it signs only sandbox credentials, is served only in
 * the sandbox DID document (/sandbox/did.json), and never enters the JWKS, the live DID
 * document or the transparency log (whose key entries are live keys).
 */
export const KEYS_CHANNEL = "prs_signing_keys";

/** A published key as the JWKS lists it (and as its transparency-log entry hashes it, RFC 8785). */
const publicJwk = (r: { kid: string; x: string }) => ({ kty: "OKP", crv: "Ed25519", x: r.x, kid: r.kid, use: "sig", alg: "EdDSA" });

export class KeyConflict extends Error {}

const g = globalThis as unknown as { __prsPublishing?: Promise<void> };

/** Add this process's keys to the published set, then load the whole set. Refuses a kid published with another key. */
export async function publishLocalKeys(db: Db): Promise<void> {
  const mine = [...localKeys(), ...localSandboxKeys()];
  await db.transaction(async (tx) => {
    const added = await tx.insert(signingKeys).values(mine.map((k) => ({ kid: k.kid, x: k.x, environment: k.environment })))
      .onConflictDoNothing()
      .returning({ kid: signingKeys.kid, x: signingKeys.x, environment: signingKeys.environment, at: signingKeys.publishedAt });
    // Each newly published live key enters the transparency log with it (sandbox keys are never logged).
    await appendLeaves(tx, added.filter((k) => k.environment === "live").map((k) => keyLeaf(sha256Hex(canonicalJson(publicJwk(k))), k.at)));
  });
  const stored = await db.select({ kid: signingKeys.kid, x: signingKeys.x, environment: signingKeys.environment }).from(signingKeys)
    .where(inArray(signingKeys.kid, mine.map((k) => k.kid)));
  const byKid = new Map(stored.map((r) => [r.kid, r]));
  for (const k of mine) {
    const row = byKid.get(k.kid);
    if (row?.x !== k.x || row.environment !== k.environment) {
      throw new KeyConflict(`signing key ${k.kid} is published with a different public key or environment; give this key another kid`);
    }
  }
  await db.execute(sql`select pg_notify(${KEYS_CHANNEL}, '')`);
  await loadPublishedKeys(db);
}

/**
 * What every signing process does at start (the server's boot, the separate webhook worker):
 * follow the keys other instances add, then publish its own. Until this has run, a process
 * signs with its newest local key, which other instances may not publish yet.
 */
export async function joinPublishedKeys(handle: { db: Db; listen: (channel: string, fn: (payload: string) => void) => Promise<void> }) {
  await handle.listen(KEYS_CHANNEL, () => void loadPublishedKeys(handle.db).catch((e) => {
    log().error({ err: e }, "reloading the published signing keys failed");
  }));
  await publishLocalKeys(handle.db);
}

/** (Re)load the published set: at start, and whenever another process announces a change. */
export async function loadPublishedKeys(db: Db): Promise<void> {
  const rows = await db.select({ kid: signingKeys.kid, x: signingKeys.x, environment: signingKeys.environment }).from(signingKeys)
    .orderBy(asc(signingKeys.publishedAt), asc(signingKeys.kid));
  setPublishedKeys(rows, () => {
    // Asked for from the signing path when a newer local key appears: one publication at a time.
    g.__prsPublishing ??= publishLocalKeys(db)
      .catch((e) => log().error({ err: e }, "publishing a new signing key failed"))
      .finally(() => { g.__prsPublishing = undefined; });
  });
}

/**
 * The JWKS straight from the table: what any instance publishes at this moment — the live keys
 * only (/.well-known/jwks.json, the live DID document, the webhook keys).
 */
export async function publishedJwks(db: Db) {
  return publishedKeySet(db, "live");
}

/** The published keys of one environment, as JWKs, oldest first. `sandbox`: only for /sandbox/did.json. */
export async function publishedKeySet(db: Db, environment: KeyEnvironment) {
  const rows = await db.select({ kid: signingKeys.kid, x: signingKeys.x }).from(signingKeys)
    .where(eq(signingKeys.environment, environment))
    .orderBy(asc(signingKeys.publishedAt), asc(signingKeys.kid));
  return { keys: rows.map(publicJwk) };
}
