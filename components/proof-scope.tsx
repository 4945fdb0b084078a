import { claimUi } from "./claims";

/** What a record proves and what it does not, in plain words: the claim type's own UI piece (components/claims/). */
type Props = { claimType: string; evidence: Record<string, unknown> };

export function ProofScope({ claimType, evidence }: Props) {
  const scope = claimUi(claimType)?.scope?.(evidence);
  if (!scope) return null;
  const { proved, notProved, recheck } = scope;
  return (
    <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="proof-scope">
      {proved && (<><h2 className="font-semibold">What was proved</h2><p className="mt-2 text-slate-700">{proved}</p></>)}
      <h2 className={`font-semibold ${proved ? "mt-4" : ""}`}>What this record does not prove</h2>
      <p className="mt-2 text-slate-700">{notProved}</p>
      {recheck && <p className="mt-3 text-sm text-slate-600">{recheck}</p>}
    </section>
  );
}
