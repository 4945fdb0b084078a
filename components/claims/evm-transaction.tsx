import { formatEther } from "viem";
import { NATIVE_COIN } from "@/lib/proofs/wallet-address";
import { shown, str, type ClaimUi, type Evidence } from "./types";

const coinOf = (network: string) => (NATIVE_COIN as Record<string, string>)[network] ?? "of the native coin";

function amount(evidence: Evidence) {
  const wei = str(evidence.value);
  if (!/^\d+$/.test(wei)) return "an unknown amount";
  return `${formatEther(BigInt(wei))} ${coinOf(str(evidence.network))} (${wei} wei)`;
}

const obj = (v: unknown): Evidence | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Evidence) : null);

/** The agent's status at the payment, in plain words: whether it was allowed to act at that moment. */
const AGENT_THEN: Record<string, { words: string; ok: boolean }> = {
  active: { words: "active — the agent was authorized at that moment", ok: true },
  suspended: { words: "suspended — the agent was not authorized at that moment", ok: false },
  revoked: { words: "revoked — the agent was no longer authorized at that moment", ok: false },
  expired: { words: "expired — the authorization had ended by that moment", ok: false },
  superseded: { words: "superseded — a newer authorization had replaced it by that moment", ok: false },
  not_yet_issued: { words: "not issued yet — the payment came before the authorization existed", ok: false },
};

/** What the payment's agent link says (stored at issue, never recomputed): who, the agent's status then, and the act. */
function AgentPayment({ link, act }: { link: Evidence; act: string }) {
  const then = AGENT_THEN[str(link.agent_status_at_payment)] ?? { words: str(link.agent_status_at_payment) || "unknown", ok: false };
  const record = str(link.agent_record);
  return (
    <span className="mt-2 block" data-testid="agent-link" data-agent-status={str(link.agent_status_at_payment)} data-attribution={str(link.attribution)}>
      It was made by the agent <strong>{str(link.agent_id) || "named in its authorization"}</strong> under the authorization{" "}
      <a className="underline" href={`/r/${encodeURIComponent(record)}`}>{record}</a>. At the time of the payment (the block&apos;s time) that authorization was{" "}
      <strong className={then.ok ? "text-emerald-800" : "text-red-700"}>{then.words}</strong>.{" "}
      {link.act_match === "unknown" || link.act_match === undefined
        ? "No act was given with the payment, so it was not compared with what the authorization allows."
        : link.act_match === true
          ? <>The act given with the payment, <code>{act}</code>, is the one the authorization names.</>
          : <>The act given with the payment, <code>{act}</code>, is <strong>not</strong> the one the authorization names.</>}{" "}
      {link.attribution === "agent_wallet"
        ? <>It was sent from one of the agent&apos;s wallets, so it counts in the agent&apos;s spend.</>
        : <><strong>It was not sent from one of the agent&apos;s wallets</strong>: the payment only cites the agent, which is not shown to have made it, and it does not count in the agent&apos;s spend.</>}
    </span>
  );
}

export const evmTransactionUi: ClaimUi = {
  type: "evm_transaction",
  labels: { tx_hash: "Transaction", chain_id: "Chain id", explorer_url: "Explorer", block_time: "Block time", block_hash: "Block hash" },
  scope: (evidence) => {
    const link = obj(evidence.agent_link);
    return {
      proved: (
        <>A successful transaction on {str(evidence.network)}: {amount(evidence)} from <code className="break-all">{str(evidence.from)}</code> to{" "}
          <code className="break-all">{str(evidence.to) || "a new contract"}</code>, in block {String(evidence.block_number ?? "")} at {str(evidence.block_time).replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC")},
          with {String(evidence.confirmations ?? "")} confirmation{evidence.confirmations === 1 ? "" : "s"} when it was checked.
          {link && <AgentPayment link={link} act={str(evidence.act)} />}</>
      ),
      notProved: "Who controls the sending or receiving address, what the payment was for, or that it was not refunded later." +
        (link ? " Nor that the amount is within the agent's mandate: amounts are never checked against it. The agent's status now may differ from its status at the payment; its own record shows it." : ""),
      recheck: str(evidence.explorer_url)
        ? <>Look it up yourself: <a className="break-all underline" href={str(evidence.explorer_url)} rel="noopener noreferrer">{str(evidence.explorer_url)}</a>.</>
        : undefined,
    };
  },
  ReviewEvidence: ({ evidence }) => (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
      <dt className="text-slate-500">Network</dt><dd data-field="evidence.network">{shown(evidence, "network")}</dd>
      <dt className="text-slate-500">Transaction</dt><dd data-field="evidence.tx_hash"><code className="break-all">{shown(evidence, "tx_hash")}</code></dd>
      <dt className="text-slate-500">Expected sender</dt><dd data-field="evidence.expected_from"><code className="break-all">{shown(evidence, "expected_from")}</code></dd>
      <dt className="text-slate-500">Expected recipient</dt><dd data-field="evidence.expected_to"><code className="break-all">{shown(evidence, "expected_to")}</code></dd>
      {evidence.agent_record !== undefined && (
        <>
          <dt className="text-slate-500">Made by the agent of</dt><dd><code>{shown(evidence, "agent_record")}</code> (issued only by a re-run on-chain check)</dd>
          <dt className="text-slate-500">Act</dt><dd>{shown(evidence, "act")}</dd>
        </>
      )}
    </dl>
  ),
};
