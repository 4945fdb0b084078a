import { agentAuthorizationUi } from "./agent-authorization";
import { verifiedListingUi } from "./verified-listing";
import { companyIdentityUi } from "./company-identity";
import { companyStatusUi } from "./company-status";
import { dexControlUi } from "./dex-control";
import { exchangeTradeTestUi, exchangeTradeUi } from "./exchange-trade";
import { domainOwnershipUi } from "./domain-ownership";
import { evmTransactionUi } from "./evm-transaction";
import type { ClaimUi } from "./types";
import { walletOwnershipUi } from "./wallet-ownership";

/** The UI piece of each claim type with one (lib/claims/ holds the rest of its definition). One line per type. */
const UI = new Map<string, ClaimUi>([companyStatusUi, companyIdentityUi, domainOwnershipUi, walletOwnershipUi, evmTransactionUi, agentAuthorizationUi, verifiedListingUi, dexControlUi, exchangeTradeTestUi, exchangeTradeUi].map((u) => [u.type, u]));

export const claimUi = (claimType: string): ClaimUi | undefined => UI.get(claimType);
