import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";
import { z } from "zod";
import { accounts, organisations, records } from "@/drizzle/schema";
import { accountDomainClaimTypes } from "@/lib/claims/registry";
import type { DbOrTx } from "@/lib/db/client";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import { getCachedProfile, putCachedProfile, statusEpoch } from "@/lib/record-model/status-cache";
import { getEnv } from "@/lib/env";
import type { AuthContext } from "./types";

/**
 * The legal entity a reviewer confirmed an account acts for (CONTRACT "Trust model"):
 * `status` is `lapsed` once the LEI register says the entity or its registration is no
 * longer active. `domains`: the account's proved domains the reviewer confirmed as the
 * entity's — only those still proved now.
 */
export type OrganisationProfile = {
  legal_name: string;
  lei: string | null;
  jurisdiction: string | null;
  basis: "lei_register" | "documents";
  status: "verified" | "lapsed";
  verified_at: string;
  domains: string[];
};

/**
 * Who is speaking: the name an account goes by, whether that name was verified (the account
 * is a verified organisation, and the name is its legal name), the organisation, and the
 * domains it proved (active live records of a type that proves an account domain). Every
 * record object, signed status, lookup match and certificate names it. A name with
 * `name_verified: false` is the account's own word and is always shown as such.
 */
export type AccountProfile = {
  name: string | null;
  name_verified: boolean;
  organisation: OrganisationProfile | null;
  verified_domains: string[];
};

/** An account that set no name and is no verified organisation. */
export const NO_PROFILE: AccountProfile = Object.freeze({ name: null, name_verified: false, organisation: null, verified_domains: [] }) as AccountProfile;

const copyProfile = (p: AccountProfile): AccountProfile => ({
  name: p.name, name_verified: p.name_verified, verified_domains: [...p.verified_domains],
  organisation: p.organisation && { ...p.organisation, domains: [...p.organisation.domains] },
});

type OrganisationRow = typeof organisations.$inferSelect;

/** The profile of an account from its own name, its organisation row (if any) and the domains it proves now. */
export function profileOf(name: string | null, org: OrganisationRow | undefined, verifiedDomains: string[]): AccountProfile {
  if (!org) return { name, name_verified: false, organisation: null, verified_domains: verifiedDomains };
  const proved = new Set(verifiedDomains);
  return {
    name: org.legalName,
    name_verified: org.status === "verified",
    organisation: {
      legal_name: org.legalName, lei: org.lei, jurisdiction: org.jurisdiction, basis: org.basis, status: org.status,
      verified_at: org.verifiedAt.toISOString(), domains: org.domains.filter((d) => proved.has(d)).sort(),
    },
    verified_domains: verifiedDomains,
  };
}

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
  const [names, orgs, domains] = await Promise.all([
    db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(inArray(accounts.id, ids)),
    db.select().from(organisations).where(inArray(organisations.accountId, ids)),
    Promise.all(ids.map(domainsOf)),
  ]);
  const byId = new Map(ids.map((id, i) => [id, domains[i]!.map((d) => d.domain)]));
  const orgById = new Map(orgs.map((o) => [o.accountId, o]));
  for (const a of names) out.set(a.id, profileOf(a.name, orgById.get(a.id), byId.get(a.id) ?? []));
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
    if (hit) out.set(id, copyProfile(hit));
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  // A change committed while this read was under way (a verification, a rename) drops the
  // cache when it is announced; what this read found may predate it, so it is kept only if no
  // invalidation came in between.
  const epoch = statusEpoch();
  const loaded = await loadAccountProfiles(db, missing);
  const keep = statusEpoch() === epoch;
  for (const id of missing) {
    const profile = loaded.get(id) ?? NO_PROFILE;
    if (keep) putCachedProfile(id, profile, getEnv().STATUS_CACHE_SECONDS * 1000);
    out.set(id, copyProfile(profile));
  }
  return out;
}

/**
 * A self-declared name is shown between the service's own words ("an account calling itself
 * ‹name› (name not verified)"): it may not bring quotation marks to close them, nor the words
 * the service uses to vouch (issue 38, "quoted names are rendered as data"). A verified
 * organisation's legal name comes from the register or a reviewer, not from here.
 */
export const NO_QUOTES = /^[^"“”„‟«»‹›「」『』〝〞＂]*$/;
export const SERVICE_WORDS = /\b(verified|unverified|proof\s*records|calling\s+itself|not\s+checked|LEI\W*[0-9A-Z]{18}[0-9]{2})\b/i;

export const accountUpdateSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(noControl, NO_CONTROL)
      .regex(noHiddenText, NO_HIDDEN)
      .regex(NO_QUOTES, "must not contain quotation marks: certificates show the name between their own.")
      .refine((v) => !SERVICE_WORDS.test(v), "must not contain the words the service uses to vouch for a name (verified, Proof Records, calling itself, not checked, an LEI): a name an account gives itself cannot vouch for itself.")
      .nullable()
      .describe("The organisation name certificates and signed statuses show as the account that made each statement; null removes it."),
  })
  .meta({ id: "AccountUpdate" });

/** The account as its owner reads it through the API. */
export async function getAccount(db: DbOrTx, auth: AuthContext) {
  const profile = (await loadAccountProfiles(db, [auth.accountId])).get(auth.accountId) ?? NO_PROFILE;
  return {
    object: "account" as const, id: auth.accountId, name: profile.name, name_verified: profile.name_verified,
    organisation: profile.organisation, verified_domains: profile.verified_domains, plan: auth.plan, environment: auth.environment,
  };
}
