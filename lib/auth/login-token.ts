import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { loginTokens } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";

/** Single-use tokens mailed as links: a sign-in link, a password reset link. */
export type LoginTokenPurpose = "magic_link" | "password_reset";

export const LOGIN_TOKEN_TTL_SECONDS: Record<LoginTokenPurpose, number> = {
  magic_link: 15 * 60,
  password_reset: 3600,
};

/** 32 random bytes, base64url without padding. */
export const LOGIN_TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** Only this is stored: a leaked table row cannot be turned back into a working link. */
export const hashLoginToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** Rows are kept a day past expiry (to tell "expired" from "not valid"), then dropped. */
const KEEP_AFTER_EXPIRY_MS = 24 * 3600_000;

export async function createLoginToken(db: DbOrTx, accountId: string, purpose: LoginTokenPurpose, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  // Housekeeping on the account's own rows (login_tokens_account_idx): no sweeper needed.
  await db
    .delete(loginTokens)
    .where(and(eq(loginTokens.accountId, accountId), lt(loginTokens.expiresAt, new Date(now.getTime() - KEEP_AFTER_EXPIRY_MS))));
  await db.insert(loginTokens).values({
    tokenHash: hashLoginToken(token),
    accountId,
    purpose,
    expiresAt: new Date(now.getTime() + LOGIN_TOKEN_TTL_SECONDS[purpose] * 1000),
    createdAt: now,
  });
  return token;
}

export type LoginTokenCheck =
  | { ok: true; accountId: string }
  | { ok: false; reason: "invalid" | "used" | "expired" };

/** Why a token cannot be used (or that it can), without using it: for the page a link opens. */
export async function peekLoginToken(db: DbOrTx, token: unknown, purpose: LoginTokenPurpose, now = new Date()): Promise<LoginTokenCheck> {
  if (typeof token !== "string" || !LOGIN_TOKEN_RE.test(token)) return { ok: false, reason: "invalid" };
  const [row] = await db
    .select({ accountId: loginTokens.accountId, expiresAt: loginTokens.expiresAt, usedAt: loginTokens.usedAt })
    .from(loginTokens)
    .where(and(eq(loginTokens.tokenHash, hashLoginToken(token)), eq(loginTokens.purpose, purpose)));
  if (!row) return { ok: false, reason: "invalid" };
  if (row.usedAt) return { ok: false, reason: "used" };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, accountId: row.accountId };
}

/**
 * Use a token: one conditional UPDATE, so of any number of concurrent callers exactly one
 * gets the account (the others find `used_at` set once the winner's row lock is released).
 * A token of the other purpose is "invalid" and stays unused.
 */
export async function consumeLoginToken(db: DbOrTx, token: unknown, purpose: LoginTokenPurpose, now = new Date()): Promise<LoginTokenCheck> {
  if (typeof token !== "string" || !LOGIN_TOKEN_RE.test(token)) return { ok: false, reason: "invalid" };
  const [won] = await db
    .update(loginTokens)
    .set({ usedAt: now })
    .where(and(
      eq(loginTokens.tokenHash, hashLoginToken(token)),
      eq(loginTokens.purpose, purpose),
      isNull(loginTokens.usedAt),
      gt(loginTokens.expiresAt, now),
    ))
    .returning({ accountId: loginTokens.accountId });
  if (won) return { ok: true, accountId: won.accountId };
  const why = await peekLoginToken(db, token, purpose, now);
  // Lost a race for a token that was valid a moment ago: it is used now.
  return why.ok ? { ok: false, reason: "used" } : why;
}

/** After a password change: every link still outstanding for the account stops working. */
export async function voidLoginTokens(db: DbOrTx, accountId: string, now = new Date()) {
  await db
    .update(loginTokens)
    .set({ usedAt: now })
    .where(and(eq(loginTokens.accountId, accountId), isNull(loginTokens.usedAt)));
}
