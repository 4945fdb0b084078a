import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
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
import type { ClaimModule } from "./types";

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
  if (MODULES.has(m.type) || (NOT_YET_AVAILABLE as readonly string[]).includes(m.type)) throw new Error(`claim type ${m.type} is taken`);
  MODULES.set(m.type, m);
}

/** When an issued record of this type is next re-checked (its monitor's interval from `at`), or null: never. */
export function nextRecheckAt(claimType: string, at: Date): Date | null {
  if (MODULES.get(claimType)?.recheckAtExpiry) return expiryFor(claimType, at);
  const every = MODULES.get(claimType)?.monitor?.intervalMs();
  return every ? new Date(at.getTime() + every) : null;
}

/** The validity a record of this type gets when the request names no end: its type's `validityDays`, or the service default. */
export function expiryFor(claimType: string, from: Date): Date {
  const days = MODULES.get(claimType)?.validityDays ?? getEnv().DEFAULT_RECORD_VALIDITY_DAYS;
  return new Date(from.getTime() + days * 86_400_000);
}

/** Every module, the reviewed fallback last: what the API documentation is built from. */
export const documentedClaimTypes = (): ClaimModule[] => [...MODULES.values(), manualReview];

/** The claim types whose active live records name a verified domain of their account. */
export const accountDomainClaimTypes = (): string[] => [...MODULES.values()].filter((m) => m.provesAccountDomain).map((m) => m.type);
/** The module of a claim type that has one of its own (not the reviewed fallback), or undefined. */
export const ownModule = (claimType: string): ClaimModule | undefined => MODULES.get(claimType);

/** True when the claim type has a module of its own, i.e. is not judged by the reviewed fallback. */
export const hasOwnModule = (claimType: string): boolean => MODULES.has(claimType);

/** The claim types whose records the public lookup can find (they declare `lookupValues`). */
export const lookupClaimTypes = (): string[] => [...MODULES.values()].filter((m) => m.lookupValues).map((m) => m.type);

/** The claim types whose issued records are re-checked periodically (the scheduler's list). */
export const monitoredClaimTypes = (): ClaimModule[] => [...MODULES.values()].filter((m) => m.monitor);

/** Named by the spec, but their connectors have not landed: refused, never faked. */
export const NOT_YET_AVAILABLE = [] as const;

/** Every claim type the service knows by name: those with a module and those not available yet (the spec's whole table). */
export const knownClaimTypes = (): string[] => [...MODULES.keys(), ...NOT_YET_AVAILABLE];

/**
 * The module a new request's claim_type is checked by. Like claimModuleFor, and a type that
 * is not known but lies within two edits of a known one (`company_stauts`) is refused as a
 * likely typo, naming the type meant, rather than taken for a new reviewed type. Stored
 * records use claimModuleFor: a type accepted before keeps its module.
 */
export function claimModuleForRequest(claimType: string): ClaimModule {
  const mod = claimModuleFor(claimType);
  if (mod !== manualReview) return mod;
  const meant = nearestClaimType(claimType, knownClaimTypes());
  if (meant) throw new ApiError("unknown_claim_type", `Unknown claim_type '${claimType}'; did you mean '${meant}'?`, "claim_type");
  return mod;
}

export function claimModuleFor(claimType: string): ClaimModule {
  const mod = MODULES.get(claimType);
  if (mod) return mod;
  if ((NOT_YET_AVAILABLE as readonly string[]).includes(claimType)) {
    throw new ApiError(
      "claim_type_not_available",
      `claim_type '${claimType}' is not available yet on this service.`,
      "claim_type",
    );
  }
  return manualReview;
}

/** A stored record's module (or the reviewed fallback); null for a type withdrawn since. */
export function claimModuleOrNull(claimType: string): ClaimModule | null {
  try {
    return claimModuleFor(claimType);
  } catch {
    return null;
  }
}
