import { formatEther } from "viem";
import { str, type Evidence } from "./types";

const obj = (v: unknown): Evidence | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Evidence) : null);
type Total = { network: string; asset: string; value: string };
const isTotal = (t: unknown): t is Total => {
  const o = obj(t);
  return !!o && typeof o.network === "string" && typeof o.asset === "string" && typeof o.value === "string" && /^\d+$/.test(o.value);
};

type Wallet = { verification_id: string | null; address: string | null; standing: string };
const isWallet = (w: unknown): w is Wallet => typeof obj(w)?.standing === "string";

/** The agent's wallets (`agent.wallets`): a payment counts as the agent's only when sent from one of them. */
function AgentWallets({ wallets }: { wallets: Wallet[] }) {
  if (wallets.length === 0) {
    return <p className="mt-2 text-sm text-slate-700" data-testid="agent-wallets" data-count={0}>This authorization names no wallet of the agent, so no payment is counted as the agent&apos;s own.</p>;
  }
  return (
    <div className="mt-2 text-sm text-slate-700" data-testid="agent-wallets" data-count={wallets.length}>
      The agent&apos;s wallets (each proved by a wallet record of the principal&apos;s account):
      <ul className="mt-1 list-disc pl-5">
        {wallets.map((w, i) => (
          <li key={i}>
            {w.address ? <code className="break-all">{w.address}</code> : "a wallet whose record is not public"}
            {w.verification_id && <> · <a className="underline" href={`/r/${encodeURIComponent(w.verification_id)}`}>{w.verification_id}</a></>}
            {w.standing !== "active" && <strong className="text-red-700"> — its wallet record no longer stands</strong>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The spend ledger (the signed status's `agent.payments`): what the payments recorded here from this agent's wallets add up to. */
export function AgentPayments({ fields }: { fields: Record<string, unknown> }) {
  const agent = obj(fields.agent);
  const ledger = obj(agent?.payments);
  if (!agent || !ledger) return null;
  const count = typeof ledger.count === "number" ? ledger.count : 0;
  const totals = Array.isArray(ledger.totals) ? ledger.totals.filter(isTotal) : [];
  const scope = obj(agent.scope);
  const wallets = Array.isArray(agent.wallets) ? agent.wallets.filter(isWallet) : [];
  const limit = str(scope?.max_amount) ? ` of ${str(scope?.max_amount)}${str(scope?.asset) ? ` ${str(scope?.asset)}` : ""}` : "";
  return (
    <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="agent-payments" data-count={count}>
      <h2 className="font-semibold">Payments made under this authorization</h2>
      {count === 0 ? (
        <p className="mt-2 text-slate-700">No payment from the agent&apos;s wallets recorded on this service names this authorization yet.</p>
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            {count === 1 ? "1 payment recorded on this service names this authorization:" : `${count} payments recorded on this service name this authorization, together:`}
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
            {totals.map((t) => (
              <li key={t.network}>
                <strong>{`${formatEther(BigInt(t.value))} ${t.asset}`}</strong>{` on ${t.network} `}<span className="break-all text-sm text-slate-500">{`(${t.value} wei)`}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <AgentWallets wallets={wallets} />
      <p className="mt-2 text-sm text-slate-600">
        Only payments sent from one of the agent&apos;s wallets, recorded here, checked on-chain, and not revoked or replaced since are counted, each transaction once.{" "}
        {`The total is added up, never checked against the mandate's limit${limit}: compare them yourself.`}
      </p>
    </section>
  );
}
