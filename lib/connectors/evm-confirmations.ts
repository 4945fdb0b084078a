import { getEnv } from "@/lib/env";
import type { EvmNetwork } from "@/lib/proofs/wallet-address";

/**
 * Confirmations (latest block − the receipt's block + 1) a transaction receipt needs
 * before a record says the transfer happened, unless `EVM_CONFIRMATIONS` says otherwise.
 * A margin past the depth to which each chain has been seen to reorder; why each number:
 * docs/decisions.md, the "confirmations" part of the EVM transaction decisions.
 */
export const DEFAULT_CONFIRMATIONS: Readonly<Record<EvmNetwork, number>> = {
  ethereum: 12,
  base: 10,
  optimism: 10,
  arbitrum: 20,
  polygon: 128,
  bsc: 15,
};

/** Confirmations a receipt on `network` needs: EVM_CONFIRMATIONS for it, else the built-in default. */
export function requiredConfirmations(network: EvmNetwork): number {
  return getEnv().EVM_CONFIRMATIONS?.[network] ?? DEFAULT_CONFIRMATIONS[network];
}
