import { eq } from "drizzle-orm";
import { accounts } from "@/drizzle/schema";
import { markEmailConfirmed } from "@/lib/accounts/manage-account";
import type { Db } from "@/lib/db/client";
import { consumeLoginToken, voidLoginTokens, type LoginTokenCheck } from "./login-token";
import { hashPassword } from "./password";

type Redeemed = { ok: true; account: typeof accounts.$inferSelect } | Extract<LoginTokenCheck, { ok: false }>;

/**
 * Sign in with a magic link: use the token and confirm the address in one transaction, so a
 * failure leaves the link usable and a success cannot be replayed.
 */
export async function redeemMagicLink(db: Db, token: unknown, now = new Date()): Promise<Redeemed> {
  return db.transaction(async (tx) => {
    const used = await consumeLoginToken(tx, token, "magic_link", now);
    if (!used.ok) return used;
    await markEmailConfirmed(tx, used.accountId, now); // opening the mailed link proves the inbox
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, used.accountId));
    return { ok: true as const, account: account! };
  });
}

/**
 * Set a new password with a reset link (also the way for CLI-made accounts, which have
 * none, to get one). The token is used, the hash stored, the address confirmed and every
 * other outstanding link of the account voided, all or nothing. Sessions signed in with
 * the old password stop working (see `passwordVersion`).
 */
export async function resetPassword(db: Db, token: unknown, newPassword: string, now = new Date()): Promise<Redeemed> {
  // scrypt is slow on purpose: hash before the transaction, not while holding the row lock.
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    const used = await consumeLoginToken(tx, token, "password_reset", now);
    if (!used.ok) return used;
    await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, used.accountId));
    await markEmailConfirmed(tx, used.accountId, now); // opening the mailed link proves the inbox
    await voidLoginTokens(tx, used.accountId, now);
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, used.accountId));
    return { ok: true as const, account: account! };
  });
}
