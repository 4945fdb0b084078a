import type { EvmTransaction } from "@/lib/connectors/evm-transaction";
import type { FieldError } from "@/lib/http/errors";
import type { EvmNetwork } from "./wallet-address";

/** Where anyone can look the transaction up without an RPC of their own. */
const EXPLORERS: Readonly<Record<EvmNetwork, string>> = {
  ethereum: "https://etherscan.io",
  base: "https://basescan.org",
  polygon: "https://polygonscan.com",
  arbitrum: "https://arbiscan.io",
  optimism: "https://optimistic.etherscan.io",
  bsc: "https://bscscan.com",
};

export const explorerUrl = (network: EvmNetwork, txHash: string) => `${EXPLORERS[network]}/tx/${txHash}`;

/** The public evidence of a record of an EVM transaction (CONTRACT, "Next capabilities"). */
export type TransactionEvidence = Omit<EvmTransaction, "status"> & { explorer_url: string };

export type TransactionJudgement =
  | { kind: "issue"; evidenceLevel: "source_verified"; publicEvidence: TransactionEvidence }
  | { kind: "fail"; error: FieldError };

/**
 * Decide a found transaction against the request: the sender and recipient asked for
 * (compared without case), a successful status, and `required` confirmations. Facts the
 * transaction cannot outgrow come first: a wrong sender or recipient, then a revert; being
 * short of confirmations last, as the only one that waiting cures.
 */
export function judgeTransaction(
  found: EvmTransaction,
  expected: { expected_from?: string; expected_to?: string },
  required: number,
): TransactionJudgement {
  const { status, ...fields } = found;
  const at = `Transaction ${found.tx_hash} on ${found.network}`;
  if (expected.expected_from !== undefined && expected.expected_from.toLowerCase() !== found.from.toLowerCase()) {
    return fail("transaction_mismatch", "evidence.expected_from", `${at} was sent from ${found.from}, not ${expected.expected_from}.`);
  }
  if (expected.expected_to !== undefined && expected.expected_to.toLowerCase() !== found.to?.toLowerCase()) {
    const actual = found.to === null ? "created a contract instead" : `was sent to ${found.to}`;
    return fail("transaction_mismatch", "evidence.expected_to", `${at} ${actual}, not to ${expected.expected_to}.`);
  }
  // Not `=== "reverted"`: receipts from before Byzantium (ethereum block 4,370,000) carry no
  // status at all (viem gives null), and a success that cannot be shown is not issued.
  if (status !== "success") {
    const message = status === "reverted"
      ? `${at} reverted in block ${found.block_number}: it changed nothing and moved no value.`
      : `${at} in block ${found.block_number} has no status in its receipt (it predates them), so its success cannot be shown.`;
    return fail("transaction_reverted", "evidence.tx_hash", message);
  }
  if (found.confirmations < required) {
    return fail(
      "transaction_not_confirmed", "evidence.tx_hash",
      `${at} has ${found.confirmations} of ${required} confirmations; submit it again once it has ${required}.`,
    );
  }
  return {
    kind: "issue",
    evidenceLevel: "source_verified",
    publicEvidence: { ...fields, explorer_url: explorerUrl(found.network, found.tx_hash) },
  };
}

function fail(code: FieldError["code"], param: string, message: string): TransactionJudgement {
  return { kind: "fail", error: { code, param, message } };
}
