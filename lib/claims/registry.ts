import { getEnv } from "@/lib/env";
import { agentAuthorization } from "./agent-authorization";
import { verifiedListing } from "./verified-listing";
import { companyIdentity } from "./company-identity";
import { companyStatus } from "./company-status";
import { dexControl } from "./dex-control";
import { exchangeVerifiedTrade, exchangeVerifiedTradeTest } from "./exchange-trade";
import { domainOwnership } from "./domain-ownership";
import { evmTransaction } from "./evm-transaction";
import { walletOwnership } from "./wallet-ownership";
import { manualReview } from "./manual-review";
import { nearestClaimType } from "./nearest-claim-type";
import type { ClaimChallenge, ClaimModule, LinkMeaning, PrincipalRule, RecheckPolicy } from "./types";

/**
 * Claim types with a module. A new claim type is one file plus one line here. A Map, not an
 * object: a claim_type such as "constructor" must not find Object.prototype's members.
 */
const MODULES = new Map<string, ClaimModule>(
  [companyStatus, companyIdentity, domainOwnership, walletOwnership, evmTransaction, agentAuthorization, verifiedListing, dexControl, exchangeVerifiedTradeTest, exchangeVerifiedTrade].map((m) => [m.type, m]),
);

/**
 * Add a module the service does not define. Only the framework's own tests use it, to
 * prove what a future type can declare (links, public fields, validity, review policy)
 * before a shipped type does; it changes nothing but this process's registry.
 */
export function registerClaimType(m: ClaimModule) {
  if (MODULES.has(m.type)) throw new Error(`claim type ${m.type} is taken`);
  MODULES.set(m.type, m);
}

/** A claim type, or its module already resolved (the create pipeline carries it). */
type TypeOrModule = string | ClaimModule;
const resolved = (t: TypeOrModule): ClaimModule => (typeof t === "string" ? claimModuleFor(t) : t);

/** When an issued record of this type is next re-checked (its monitor's interval from `at`, or its renewal at its end), or null: never. */
export function nextRecheckAt(type: TypeOrModule, at: Date): Date | null {
  const mod = resolved(type);
  const recheck = mod.policy?.recheck;
  if (recheck?.kind === "renewal") return expiryFor(mod, at);
  return recheck?.kind === "monitor" ? new Date(at.getTime() + recheck.intervalMs()) : null;
}

/** The longest validity, in days, a record of this type may ask for (its renewal period), or undefined: any. */
export const maxValidityDays = (type: TypeOrModule): number | undefined => {
  const recheck = resolved(type).policy?.recheck;
  return recheck?.kind === "renewal" ? recheck.validityDays : undefined;
};

/** The validity a record of this type gets when the request names no end: its renewal period, or the service default. */
export function expiryFor(type: TypeOrModule, from: Date): Date {
  const days = maxValidityDays(type) ?? getEnv().DEFAULT_RECORD_VALIDITY_DAYS;
  return new Date(from.getTime() + days * 86_400_000);
}

/** The type's periodic re-check, when it has one (`policy.recheck` of kind `monitor`). */
export const monitorOf = (type: TypeOrModule): Extract<RecheckPolicy, { kind: "monitor" }> | undefined => {
  const recheck = resolved(type).policy?.recheck;
  return recheck?.kind === "monitor" ? recheck : undefined;
};

/** The role of the type's links that has this meaning (`request.links.means`), or undefined. */
function roleMeaning<K extends LinkMeaning["kind"]>(type: TypeOrModule, kind: K): { role: string; meaning: Extract<LinkMeaning, { kind: K }> } | undefined {
  for (const [role, meaning] of Object.entries(resolved(type).request.links?.means ?? {})) {
    if (meaning.kind === kind) return { role, meaning: meaning as Extract<LinkMeaning, { kind: K }> };
  }
  return undefined;
}

/** Whether an issued record of this type stands only with its parts (it has `part` links). */
export const followsParts = (type: TypeOrModule): boolean => roleMeaning(type, "part") !== undefined;

/** The link role a record of this type renews (issuing it supersedes that record), or undefined. */
export const renewsRole = (type: TypeOrModule): string | undefined => roleMeaning(type, "renews")?.role;

/** The link role naming a principal the owner may change after issue, and the rule it is held to; or undefined. */
export function principalOf(type: TypeOrModule): { role: string; problem: PrincipalRule } | undefined {
  const found = roleMeaning(type, "principal");
  return found && { role: found.role, problem: found.meaning.problem };
}

/** Every module, the reviewed fallback last: what the API documentation is built from. */
export const documentedClaimTypes = (): ClaimModule[] => [...MODULES.values(), manualReview];

/** Whether an active live record of this type proves its subject is a domain of its account (`capabilities.proves`). */
export const provesAccountDomain = (type: TypeOrModule): boolean => resolved(type).capabilities?.proves === "account_domain";
/** The claim types whose active live records name a verified domain of their account. */
export const accountDomainClaimTypes = (): string[] => [...MODULES.values()].filter(provesAccountDomain).map((m) => m.type);
/** True when the claim type has a module of its own, i.e. is not judged by the reviewed fallback. */
export const hasOwnModule = (claimType: string): boolean => MODULES.has(claimType);

/** The claim types whose records the public lookup can find (they declare `view.lookupValues`). */
export const lookupClaimTypes = (): string[] => [...MODULES.values()].filter((m) => m.view?.lookupValues).map((m) => m.type);

const typesWith = (has: (m: ClaimModule) => unknown): string[] => [...MODULES.values()].filter(has).map((m) => m.type);

/** The types a challenge of this kind can be asked for (e.g. a wallet challenge's `claim_type`), in registry order. */
export const challengeClaimTypes = (kind: ClaimChallenge["kind"]) => typesWith((m) => m.challenge?.kind === kind) as [string, ...string[]];

/** The module a challenge of this kind is for when none is named, and the one the portal's Proofs page creates. */
export function primaryChallengeModule(kind: ClaimChallenge["kind"]): ClaimModule & { challenge: Required<ClaimChallenge> } {
  const mod = [...MODULES.values()].find((m) => m.challenge?.kind === kind && m.challenge.primary);
  if (!mod) throw new Error(`no claim type is the primary one for ${kind} challenges`);
  return mod as ClaimModule & { challenge: Required<ClaimChallenge> };
}

/** The types whose checked records prove a legal identity (`capabilities.proves`). */
export const legalIdentityClaimTypes = () => typesWith((m) => m.capabilities?.proves === "legal_identity");


/** The types whose records name a principal their owner may change (a `principal` link). */
export const principalClaimTypes = () => typesWith((m) => principalOf(m));
/** Types with a part resting on the account's verified organisation (a listing's operator): they follow its standing. */
export const accountPartClaimTypes = () => typesWith((m) => m.policy?.accountPartLapsed !== undefined);

/** The claim types whose issued records are re-checked periodically (the scheduler's list). */
export const monitoredClaimTypes = (): ClaimModule[] => [...MODULES.values()].filter((m) => monitorOf(m));

/** Every claim type with a module of its own: the guard test and the typo check read this list. */
export const knownClaimTypes = (): string[] => [...MODULES.keys()];

/**
 * The module a claim type is judged by: its own, or the reviewed fallback for any other type.
 * Total — it never throws and never answers "none" — so every caller, whether it holds a new
 * request or a stored record, asks it the same way.
 */
export const claimModuleFor = (claimType: string): ClaimModule => MODULES.get(claimType) ?? manualReview;

/**
 * For a new request's claim_type that has no module: the known type it lies within two edits
 * of (`company_stauts` → `company_status`), which the request is refused as a likely typo of
 * rather than taken for a new reviewed type; otherwise undefined. Stored records never ask:
 * a type accepted before keeps its module.
 */
export const likelyTypoOf = (claimType: string): string | undefined => nearestClaimType(claimType, knownClaimTypes()) ?? undefined;
