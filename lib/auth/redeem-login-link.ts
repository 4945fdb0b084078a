import { eq } from "drizzle-orm";
import { accounts } from "@/drizzle/schema";
import { announceAccountChange } from "@/lib/accounts/auth-cache";
import { markEmailConfirmed } from "@/lib/accounts/manage-account";
import { revokeAccessBeforeConfirmation } from "@/lib/accounts/revoke-access-before-confirmation";
import type { Db, Tx } from "@/lib/db/client";
import { consumeLoginToken, voidLoginTokens, type LoginTokenCheck } from "./login-token";
import { hashPassword } from "./password";
import { replacePassword } from "./store-password";

type Redeemed = { ok: true; account: typeof accounts.$inferSelect } | Extract<LoginTokenCheck, { ok: false }>;

/**
 * A used link proves the inbox, so it confirms the address. But anyone can sign up with
 * someone else's address, so on an account not confirmed until now whoever signed up may
 * not be whoever holds the inbox: a password set before is voided (`voidPassword`; a reset
 * replaces it anyway), which ends every session made with it (the session epoch moves), and the
 * account's other links, API keys, mandate keys and webhook endpoints are revoked.
 */
async function confirmThroughLink(tx: Tx, accountId: string, now: Date, opts: { voidPassword: boolean }) {
  if (!(await markEmailConfirmed(tx, accountId, now))) return;
  if (await madeByOperator(tx, accountId)) return;
  if (opts.voidPassword) await replacePassword(tx, accountId, null);
  await voidLoginTokens(tx, accountId, now);
  await revokeAccessBeforeConfirmation(tx, accountId, now);
}

/**
 * An account the operator created (CLI `account create`) was made on the operator's word for
 * that address, not by whoever typed it into the sign-up form: nothing in it can be a
 * stranger's, so proving the inbox revokes nothing there (docs/security.md).
 */
async function madeByOperator(tx: Tx, accountId: string) {
  const [row] = await tx.select({ createdBy: accounts.createdBy }).from(accounts).where(eq(accounts.id, accountId));
  return row?.createdBy === "operator";
}

const accountOf = async (tx: Tx, id: string) => (await tx.select().from(accounts).where(eq(accounts.id, id)))[0]!;

/**
 * Sign in with a magic link: use the token and confirm the address in one transaction, so a
 * failure leaves the link usable and a success cannot be replayed.
 */
export async function redeemMagicLink(db: Db, token: unknown, now = new Date()): Promise<Redeemed> {
  const r = await db.transaction(async (tx): Promise<Redeemed> => {
    const used = await consumeLoginToken(tx, token, "magic_link", now);
    if (!used.ok) return used;
    await confirmThroughLink(tx, used.accountId, now, { voidPassword: true });
    return { ok: true, account: await accountOf(tx, used.accountId) };
  });
  if (r.ok) announceAccountChange(); // committed; keys may have been revoked
  return r;
}

/**
 * Set a new password with a reset link (also the way for CLI-made accounts, which have
 * none, to get one). The token is used, the hash stored, the address confirmed and every
 * other outstanding link of the account voided, all or nothing. Sessions signed in with
 * the old password stop working (the session epoch moves).
 */
export async function resetPassword(db: Db, token: unknown, newPassword: string, now = new Date()): Promise<Redeemed> {
  // scrypt is slow on purpose: hash before the transaction, not while holding the row lock.
  const passwordHash = await hashPassword(newPassword);
  const r = await db.transaction(async (tx): Promise<Redeemed> => {
    const used = await consumeLoginToken(tx, token, "password_reset", now);
    if (!used.ok) return used;
    await replacePassword(tx, used.accountId, passwordHash);
    await confirmThroughLink(tx, used.accountId, now, { voidPassword: false });
    await voidLoginTokens(tx, used.accountId, now);
    return { ok: true, account: await accountOf(tx, used.accountId) };
  });
  if (r.ok) announceAccountChange(); // committed; keys may have been revoked
  return r;
}

export type SignupConfirmation = "confirmed" | "already_confirmed" | "no_account";

/**
 * "Yes, I created this account" through the sign-up's confirmation link. The link proves the
 * inbox, not that its holder is whoever signed up (someone may have signed up with another
 * person's address first), so it does what the mailed sign-in and reset links do: the person
 * chooses the account's password (the one set at sign-up is replaced, which ends every
 * session made before), other outstanding links are voided and every API key, mandate key
 * and webhook endpoint made before is revoked (revokeAccessBeforeConfirmation). On an
 * account already confirmed it changes nothing: the link is no way to reset a password.
 */
export async function confirmThroughSignupLink(db: Db, accountId: string, newPassword: string, now = new Date()): Promise<SignupConfirmation> {
  const passwordHash = await hashPassword(newPassword); // slow on purpose: before the transaction
  const r = await db.transaction(async (tx): Promise<SignupConfirmation> => {
    if (!(await markEmailConfirmed(tx, accountId, now))) {
      const [exists] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
      return exists ? "already_confirmed" : "no_account";
    }
    await replacePassword(tx, accountId, passwordHash);
    if (await madeByOperator(tx, accountId)) return "confirmed";
    await voidLoginTokens(tx, accountId, now);
    await revokeAccessBeforeConfirmation(tx, accountId, now);
    return "confirmed";
  });
  if (r === "confirmed") announceAccountChange(); // committed; keys were revoked
  return r;
}
