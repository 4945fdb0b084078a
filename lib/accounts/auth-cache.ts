import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import type { AuthContext } from "./types";

/**
 * Resolved API keys, kept briefly so a request needs no key lookup. Any change to keys or
 * accounts (revoke, plan, role, email) drops the whole cache: locally at once, and in other
 * processes through the `prs_accounts` notification sent inside the changing statement's
 * transaction. The TTL bounds the damage if a notification were ever lost.
 */
const TTL_MS = 30_000;
type Entry = { auth: AuthContext; until: number; lastUsedWrite: number };
const g = globalThis as unknown as { __prsAuthCache?: Map<string, Entry> };
const cache = (g.__prsAuthCache ??= new Map());

export const ACCOUNTS_CHANNEL = "prs_accounts";

export function cachedAuth(hash: string, now = Date.now()): Entry | undefined {
  const e = cache.get(hash);
  if (e && e.until > now) return e;
  if (e) cache.delete(hash);
  return undefined;
}

export function rememberAuth(hash: string, auth: AuthContext, lastUsedWrite: number) {
  if (cache.size > 10_000) cache.clear();
  cache.set(hash, { auth, until: Date.now() + TTL_MS, lastUsedWrite });
}

export function forgetAllAuth() {
  cache.clear();
}

/** Call after changing keys or accounts, inside the same transaction or right after the statement. */
export async function announceAccountChange(db: DbOrTx) {
  forgetAllAuth();
  await db.execute(sql`select pg_notify(${ACCOUNTS_CHANNEL}, '')`);
}
