import { formatEther } from "viem";
import { shown, str, type ClaimUi } from "./types";

/** The native coin whose wei `value` counts (all six networks use 18 decimals). */
const COIN: Record<string, string> = { ethereum: "ETH", base: "ETH", optimism: "ETH", arbitrum: "ETH", polygon: "POL", bsc: "BNB" };

function amount(evidence: Record<string, unknown>) {
  const wei = str(evidence.value);
  if (!/^\d+$/.test(wei)) return "an unknown amount";
  return `${formatEther(BigInt(wei))} ${COIN[str(evidence.network)] ?? "of the native coin"} (${wei} wei)`;
}

export const evmTransactionUi: ClaimUi = {
  type: "evm_transaction",
  scope: (evidence) => ({
    proved: (
      <>A successful transaction on {str(evidence.network)}: {amount(evidence)} from <code className="break-all">{str(evidence.from)}</code> to{" "}
        <code className="break-all">{str(evidence.to) || "a new contract"}</code>, in block {String(evidence.block_number ?? "")} at {str(evidence.block_time).replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC")},
        with {String(evidence.confirmations ?? "")} confirmation{evidence.confirmations === 1 ? "" : "s"} when it was checked.</>
    ),
    notProved: "Who controls the sending or receiving address, what the payment was for, or that it was not refunded later.",
    recheck: str(evidence.explorer_url)
      ? <>Look it up yourself: <a className="break-all underline" href={str(evidence.explorer_url)} rel="noopener noreferrer">{str(evidence.explorer_url)}</a>.</>
      : undefined,
  }),
  ReviewEvidence: ({ evidence }) => (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
      <dt className="text-slate-500">Network</dt><dd>{shown(evidence, "network")}</dd>
      <dt className="text-slate-500">Transaction</dt><dd><code className="break-all">{shown(evidence, "tx_hash")}</code></dd>
      <dt className="text-slate-500">Expected sender</dt><dd><code className="break-all">{shown(evidence, "expected_from")}</code></dd>
      <dt className="text-slate-500">Expected recipient</dt><dd><code className="break-all">{shown(evidence, "expected_to")}</code></dd>
    </dl>
  ),
};
