import { and, desc, eq, ilike, isNull } from "drizzle-orm";
import { accounts, apiKeys } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { writeAudit } from "@/lib/audit/staff-audit";
import { announceAccountChange } from "./auth-cache";
import { keyDisplay } from "./key-display";
import type { Plan, Role } from "./types";

/**
 * An admin (or the operator at the CLI: `by` null) sets an account's plan; audited. A suspended
 * account's plan is frozen: 409 `invalid_transition` until staff reinstate it.
 */
export async function setPlan(db: Db, accountId: string, plan: Plan, by: string | null = null) {
  const done = await db.transaction(async (tx) => {
    const [before] = await tx.select({ plan: accounts.plan, suspendedAt: accounts.suspendedAt }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    if (!before) return false;
    if (before.suspendedAt) throw new ApiError("invalid_transition", "This account is suspended: its plan is frozen until staff reinstate it.", "plan");
    await writePlan(tx, accountId, plan);
    await writeAudit(tx, {
      staffAccountId: by, action: "account.set_plan", subjectKind: "account", subjectId: accountId, accountId, at: new Date(),
      before: { plan: before.plan }, after: { plan },
    });
    return true;
  });
  announceAccountChange(); // committed: drop cached lookups before answering
  return done;
}

/** setPlan's write, for a caller's transaction (which calls announceAccountChange once committed). */
export async function writePlan(tx: DbOrTx, accountId: string, plan: Plan) {
  const r = await tx.update(accounts).set({ plan }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
  return r.length === 1;
}

/** Enable or disable live exchange trade verification (exchange_verified_trade) for an account: an admin's decision. */
export async function setLiveExchangeVerification(db: Db, accountId: string, on: boolean, by: string | null = null) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ on: accounts.liveExchangeVerification }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    if (!before) return false;
    await tx.update(accounts).set({ liveExchangeVerification: on }).where(eq(accounts.id, accountId));
    await writeAudit(tx, {
      staffAccountId: by, action: "account.set_live_exchange", subjectKind: "account", subjectId: accountId, accountId, at: new Date(),
      before: { live_exchange_verification: before.on }, after: { live_exchange_verification: on },
    });
    return true;
  });
}

/** An admin (or the operator: `by` null) gives an account a role; audited. */
export async function grantRole(db: Db, accountId: string, role: Role, by: string | null = null) {
  const done = await db.transaction(async (tx) => {
    const [before] = await tx.select({ role: accounts.role }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    if (!before) return false;
    await tx.update(accounts).set({ role }).where(eq(accounts.id, accountId));
    await writeAudit(tx, {
      staffAccountId: by, action: "account.set_role", subjectKind: "account", subjectId: accountId, accountId, at: new Date(),
      before: { role: before.role }, after: { role },
    });
    return true;
  });
  announceAccountChange(); // committed: drop cached lookups before answering
  return done;
}

/** Confirm the address unless it already is (the first confirmation's time stays); true if this call confirmed it. */
export async function markEmailConfirmed(db: DbOrTx, accountId: string, at = new Date()) {
  const r = await db
    .update(accounts)
    .set({ emailConfirmedAt: at })
    .where(and(eq(accounts.id, accountId), isNull(accounts.emailConfirmedAt)))
    .returning({ id: accounts.id });
  return r.length === 1;
}

export async function confirmEmail(db: Db, accountId: string) {
  if (await markEmailConfirmed(db, accountId)) return true;
  const [exists] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
  return Boolean(exists);
}

export async function revokeApiKey(db: Db, keyId: string) {
  const r = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  announceAccountChange(); // committed: drop cached lookups before answering
  return r.length === 1;
}

/** Revoke a key only if it belongs to `accountId` (the portal's check); false otherwise. */
export async function revokeOwnApiKey(db: Db, accountId: string, keyId: string) {
  const r = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  announceAccountChange(); // committed: drop cached lookups before answering
  return r.length === 1;
}

/** The account's keys, newest first, each with its display form (`prs_live_…Wx3k`). */
export async function listApiKeys(db: Db, accountId: string) {
  const rows = await db
    .select({
      id: apiKeys.id, environment: apiKeys.environment, keyPrefix: apiKeys.keyPrefix, lastFour: apiKeys.lastFour,
      createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt, scopes: apiKeys.scopes,
    })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => ({ ...r, display: keyDisplay(r) }));
}

/** The admin console's account list: newest first, optionally filtered by part of the email. */
export async function listAccounts(db: Db, q: { emailContains?: string; limit?: number } = {}) {
  const needle = q.emailContains?.trim().toLowerCase();
  return db
    .select({
      id: accounts.id, email: accounts.email, role: accounts.role, plan: accounts.plan,
      emailConfirmedAt: accounts.emailConfirmedAt, createdAt: accounts.createdAt, liveExchangeVerification: accounts.liveExchangeVerification, suspendedAt: accounts.suspendedAt,
    })
    .from(accounts)
    .where(needle ? ilike(accounts.email, `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined)
    .orderBy(desc(accounts.createdAt), desc(accounts.id))
    .limit(Math.min(q.limit ?? 200, 1000));
}
