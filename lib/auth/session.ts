import { getServerSession } from "next-auth";
import { forbidden, redirect } from "next/navigation";
import type { Role } from "@/lib/accounts/types";
import { getDb } from "@/lib/db/client";
import { getAuthOptions } from "./options";
import { findAccountById } from "./signup";

/**
 * The signed-in account, read fresh from the database (plan, confirmation may change), or
 * null. A signed-out session, or one made before the account's password last changed or
 * before "sign out everywhere", is no session: getServerSession answers null (the jwt
 * callback in ./options asks `isSessionEnded`); the epoch is compared again here with the
 * account row just read, and a suspended account has none.
 */
export async function currentAccount() {
  const session = (await getServerSession(getAuthOptions())) as { accountId?: string; epoch?: number } | null;
  if (!session?.accountId) return null;
  const account = await findAccountById(await getDb(), session.accountId);
  // A suspended account has no session (suspending also moved its epoch: this is belt and braces).
  if (!account || session.epoch !== account.sessionEpoch || account.suspendedAt) return null;
  return account;
}

/** For pages and server actions that need a session: no session → /signin. */
export async function requireAccount(from = "/developers") {
  const account = await currentAccount();
  if (!account) redirect(`/signin?callbackUrl=${encodeURIComponent(from)}`);
  return account;
}

/** Reviewer and admin pages: no session → /signin; signed in without the role → 403. */
export async function requireRole(roles: readonly Role[], from: string) {
  const account = await requireAccount(from);
  if (!roles.includes(account.role)) forbidden();
  return account;
}
