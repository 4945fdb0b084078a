import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";
import { z } from "zod";
import { accounts, records } from "@/drizzle/schema";
import { accountDomainClaimTypes } from "@/lib/claims/registry";
import type { Db, DbOrTx } from "@/lib/db/client";
import { parseOrThrow } from "@/lib/http/validation";
import { notifyStatusChanged } from "@/lib/records/notify-status";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/records/schemas";
import { getCachedProfile, invalidateStatus, putCachedProfile } from "@/lib/records/status-cache";
import { getEnv } from "@/lib/env";
import { announceAccountChange } from "./auth-cache";
import type { AuthContext } from "./types";

/**
 * Who is speaking: the name an account goes by (its own word, null when it set none) and
 * the domains it proved (active live records of a type that proves an account domain).
 * Every record object, signed status and certificate names it.
 */
export type AccountProfile = { name: string | null; verified_domains: string[] };

/** At most this many verified domains are named with an account (the first, in name order). */
export const MAX_VERIFIED_DOMAINS = 20;

/** The key under which cached public views depend on their account (status-cache.ts). */
export const accountDependency = (accountId: string) => `account:${accountId}`;

export async function loadAccountProfiles(db: DbOrTx, accountIds: readonly string[], now = new Date()): Promise<Map<string, AccountProfile>> {
  const ids = [...new Set(accountIds)];
  const out = new Map<string, AccountProfile>();
  if (ids.length === 0) return out;
  const types = accountDomainClaimTypes();
  // Per account, the first MAX_VERIFIED_DOMAINS in name order: an index walk (records_account_domains_idx), however
  // many domains an account has proved.
  const domainsOf = (id: string) => types.length === 0 ? Promise.resolve([]) : db
    .selectDistinct({ domain: records.subject })
    .from(records)
    .where(and(
      eq(records.accountId, id), eq(records.environment, "live"), inArray(records.claimType, types),
      eq(records.status, "active"), or(isNull(records.expiresAt), gt(records.expiresAt, now)),
    ))
    .orderBy(records.subject)
    .limit(MAX_VERIFIED_DOMAINS);
  const [names, domains] = await Promise.all([
    db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, ids)),
    Promise.all(ids.map(domainsOf)),
  ]);
  const byId = new Map(ids.map((id, i) => [id, domains[i]!.map((d) => d.domain)]));
  for (const a of names) out.set(a.id, { name: a.name, verified_domains: byId.get(a.id) ?? [] });
  return out;
}

/**
 * One account's profile, for the answer to a create: kept per process like a signed status
 * (STATUS_CACHE_SECONDS, dropped at once on a name change or a domain record's move), so an
 * offline create stays one statement once the account is known.
 */
export async function getAccountProfile(db: DbOrTx, accountId: string): Promise<AccountProfile> {
  return (await getAccountProfiles(db, [accountId])).get(accountId)!;
}

/** Several accounts' profiles, kept per process as getAccountProfile keeps one (the lookup names every match's account). */
export async function getAccountProfiles(db: DbOrTx, accountIds: readonly string[]): Promise<Map<string, AccountProfile>> {
  const out = new Map<string, AccountProfile>();
  const missing: string[] = [];
  for (const id of new Set(accountIds)) {
    const hit = getCachedProfile(id);
    if (hit) out.set(id, { name: hit.name, verified_domains: [...hit.verified_domains] });
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  const loaded = await loadAccountProfiles(db, missing);
  for (const id of missing) {
    const profile = loaded.get(id) ?? { name: null, verified_domains: [] };
    putCachedProfile(id, profile, getEnv().STATUS_CACHE_SECONDS * 1000);
    out.set(id, { name: profile.name, verified_domains: [...profile.verified_domains] });
  }
  return out;
}

export const accountUpdateSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(noControl, NO_CONTROL)
      .regex(noHiddenText, NO_HIDDEN)
      .nullable()
      .describe("The organisation name certificates and signed statuses show as the account that made each statement; null removes it."),
  })
  .meta({ id: "AccountUpdate" });

/** The account as its owner reads it through the API. */
export async function getAccount(db: DbOrTx, auth: AuthContext) {
  const profile = (await loadAccountProfiles(db, [auth.accountId])).get(auth.accountId) ?? { name: null, verified_domains: [] };
  return { object: "account" as const, id: auth.accountId, name: profile.name, verified_domains: profile.verified_domains, plan: auth.plan, environment: auth.environment };
}

/**
 * Set or clear the organisation name. Records issued from now on carry it in their signed
 * payload; every cached public view of the account's records is dropped at once (here, and
 * in other processes through the status notification).
 */
export async function updateAccount(db: Db, auth: AuthContext, raw: unknown) {
  const input = parseOrThrow(accountUpdateSchema, raw);
  await db.transaction(async (tx) => {
    await tx.update(accounts).set({ name: input.name }).where(eq(accounts.id, auth.accountId));
    await notifyStatusChanged(tx, [accountDependency(auth.accountId)]);
  });
  announceAccountChange(); // cached API-key contexts carry the old name
  invalidateStatus(accountDependency(auth.accountId));
  return getAccount(db, { ...auth, accountName: input.name });
}
