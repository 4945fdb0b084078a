import type { ClaimUi } from "./claims/types";

/**
 * What a record proves and what it does not, in plain words: the claim type's own UI piece
 * (components/claims/), or for a type without one a box by evidence level — every
 * certificate has one.
 */
/** `ui`: the record's claim-type UI piece, resolved once by the page (undefined: the type has none). */
type Props = { ui: ClaimUi | undefined; evidence: Record<string, unknown>; level: string; speaker: string };

function genericScope(level: string, speaker: string) {
  if (level === "participant_attested") {
    return { proved: undefined, notProved: `Anything at all: this is ${speaker}'s own statement, and nothing in it was checked.` };
  }
  return {
    proved: level === "evidence_verified"
      ? "A Proof Records reviewer confirmed the claim, as worded, against the source named in the evidence, at the time of review."
      : "The claim, as worded, matched the source named in the evidence when it was checked.",
    notProved: "Anything beyond the claim as worded, or that the source still says so today; follow the source link to look yourself.",
  };
}

export function ProofScope({ ui, evidence, level, speaker }: Props) {
  const own = ui?.scope?.(evidence);
  const { proved, notProved, recheck } = { recheck: undefined, ...(own ?? genericScope(level, speaker)) };
  return (
    <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="proof-scope">
      {proved && (<><h2 className="font-semibold">What was proved</h2><p className="mt-2 text-slate-700">{proved}</p></>)}
      <h2 className={`font-semibold ${proved ? "mt-4" : ""}`}>What this record does not prove</h2>
      <p className="mt-2 text-slate-700">{notProved}</p>
      {recheck && <p className="mt-3 text-sm text-slate-600">{recheck}</p>}
    </section>
  );
}
