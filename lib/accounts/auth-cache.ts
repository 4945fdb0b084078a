import { getEnv } from "@/lib/env";
import type { AuthContext } from "./types";

/**
 * Resolved API keys, kept briefly so a request needs no key lookup — only on the embedded
 * database, where this server process is the only one that can change keys or accounts
 * (the admin CLI goes through it while it runs). With DATABASE_URL other processes share
 * the database and nothing they announce can be known to have arrived before the next
 * request, so every request reads its key (docs/decisions.md, "Keys and accounts").
 *
 * An entry can never outlive a change: each lookup notes the generation before it reads the
 * database, `rememberAuth` stores only if no change was announced since, and
 * `announceAccountChange` (called once the change is committed) moves the generation on and
 * drops every entry. The TTL only bounds memory use of keys nobody uses any more.
 */
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;
type Entry = { auth: AuthContext; until: number; lastUsedWrite: number };
type State = { entries: Map<string, Entry>; generation: number };
// Next can load this module more than once per process (route bundles): one state per process.
const g = globalThis as unknown as { __prsAuthCache?: State };
const state = (g.__prsAuthCache ??= { entries: new Map(), generation: 0 });

export const authCacheEnabled = () => !getEnv().DATABASE_URL;

/** Read before looking a key up in the database; hand it to `rememberAuth`. */
export const authGeneration = () => state.generation;

export function cachedAuth(hash: string, now = Date.now()): Entry | undefined {
  const e = state.entries.get(hash);
  if (e && e.until > now) return e;
  if (e) state.entries.delete(hash);
  return undefined;
}

/** Keep a lookup made at `generation`, unless a change was announced since (it may predate it). */
export function rememberAuth(hash: string, auth: AuthContext, lastUsedWrite: number, generation: number) {
  if (!authCacheEnabled() || generation !== state.generation) return;
  if (state.entries.size >= MAX_ENTRIES) state.entries.clear();
  state.entries.set(hash, { auth, until: Date.now() + TTL_MS, lastUsedWrite });
}

/**
 * Call once a change to keys or accounts (revoke, plan, role, confirmation) is committed —
 * after the statement, or after the transaction that made it — and before answering.
 */
export function announceAccountChange() {
  state.generation++;
  state.entries.clear();
}
