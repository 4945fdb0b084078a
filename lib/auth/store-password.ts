import { and, eq, sql } from "drizzle-orm";
import { accounts } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";

/**
 * Set, replace or void (null) an account's password. Every session made before stops
 * counting: the account's session epoch moves on (`currentAccount` compares it).
 */
export async function replacePassword(db: DbOrTx, accountId: string, passwordHash: string | null) {
  await db
    .update(accounts)
    .set({ passwordHash, sessionEpoch: sql`${accounts.sessionEpoch} + 1` })
    .where(eq(accounts.id, accountId));
}

/**
 * Store a hash of the same password made at today's cost, in place of the weaker one it was
 * checked against. Only if that one is still stored (a reset committed in between wins),
 * and without moving the session epoch: the password is the same, so every session stays.
 * Answers whether it was stored.
 */
export async function upgradePasswordHash(db: DbOrTx, accountId: string, from: string, to: string): Promise<boolean> {
  const r = await db
    .update(accounts)
    .set({ passwordHash: to })
    .where(and(eq(accounts.id, accountId), eq(accounts.passwordHash, from)))
    .returning({ id: accounts.id });
  return r.length === 1;
}

/** "Sign out everywhere": every session of the account stops counting, the password stays. */
export async function endAllSessions(db: DbOrTx, accountId: string) {
  await db.update(accounts).set({ sessionEpoch: sql`${accounts.sessionEpoch} + 1` }).where(eq(accounts.id, accountId));
}
