import { ApiError } from "@/lib/http/errors";
import { companyStatus } from "./company-status";
import { domainOwnership } from "./domain-ownership";
import { walletOwnership } from "./wallet-ownership";
import { manualReview } from "./manual-review";
import type { ClaimModule } from "./types";

/** Claim types with a module. A new claim type is one file plus one line here. */
const MODULES: Record<string, ClaimModule> = {
  company_status: companyStatus,
  domain_ownership: domainOwnership,
  wallet_ownership: walletOwnership,
};

/** Named by the spec, but their connectors have not landed: refused, never faked. */
export const NOT_YET_AVAILABLE = [
  "agent_authorization", "company_identity", "evm_transaction",
  "verified_listing", "dex_control", "exchange_verified_trade", "exchange_verified_trade_test",
] as const;

export function claimModuleFor(claimType: string): ClaimModule {
  const mod = MODULES[claimType];
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
