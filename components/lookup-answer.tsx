import { DomainName, SubjectName } from "@/components/domain-name";
import { formatUtc, formatUtcDay } from "@/lib/format/dates";
import type { LookupAnswer } from "@/lib/public/lookup/answer-lookup";
import { checkFieldFor, KIND_NAME } from "@/lib/public/lookup/read-home-query";
import { WithSpeaker } from "@/components/speaker-name";
import { WHO } from "@/lib/record-model/evidence-level-text";
import { speakerOf } from "@/lib/trust/decide";

/*
 * The public lookup's answer on the home page (app/page.tsx): the same `result` the signed
 * GET /api/v1/lookup gives (lib/public/lookup/answer-lookup.ts, from the one trust decision), in
 * words, and an offer to run the full "Check before you pay" with the value filled in. Only
 * `verified` is green; a name an account gave itself is never shown beside a tick.
 */

type Result = LookupAnswer["result"];

const TONE: Record<Result, string> = {
  verified: "border-emerald-600 bg-emerald-50",
  checked: "border-amber-500 bg-amber-50",
  attested: "border-amber-500 bg-amber-50",
  no_match: "border-slate-400 bg-white",
};

const HEADLINE: Record<Result, string> = {
  verified: "✓ On record for a verified organisation",
  checked: "! On record — but not for a verified organisation",
  attested: "! Only stated by an account — not checked",
  no_match: "– Nothing on record",
};

const LEVEL: Record<string, string> = {
  source_verified: "checked automatically against a source",
  evidence_verified: "confirmed by a Proof Records reviewer",
  participant_attested: "only stated by the account — not checked",
};

function sentence(a: LookupAnswer): string {
  const kind = KIND_NAME[a.type];
  const orgs = [...new Set(a.matches.flatMap((m) => (speakerOf(m.account) === "verified_organisation" && m.account.name ? [m.account.name] : [])))];
  switch (a.result) {
    case "verified":
      return `This ${kind} is on record for ${orgs.join(", ") || "a verified organisation"}, checked and still in force. Make sure that is who you mean to pay.`;
    case "checked":
      return `This ${kind} is on a checked record, but only through accounts whose names nobody verified: who they are is their own word. This is no assurance of who you are dealing with.`;
    case "attested":
      return `An account stated this ${kind} as its own, and nobody checked it. This is no assurance of who you are dealing with.`;
    case "no_match":
      return `There is no live, public record in force with this ${kind}. That is no guarantee either way: it does not mean it is a scam, nor that it is safe. Ask whoever you are paying for a Proof Records certificate.`;
  }
}

export function LookupAnswerView({ answer }: { answer: LookupAnswer }) {
  const field = checkFieldFor(answer.type);
  return (
    <div className="mt-5 space-y-4" data-testid="lookup-answer" data-result={answer.result} data-type={answer.type}>
      {answer.taken_down && answer.result !== "verified" && (
        // A take-down keeps warning (issue 38): red, above everything else, not a grey "nothing on record".
        <p role="alert" className="rounded-lg border-l-8 border-red-600 bg-red-50 p-4 text-lg font-semibold text-red-900" data-testid="taken-down">
          Proof Records took a record with this {KIND_NAME[answer.taken_down.kind] ?? KIND_NAME[answer.type]} down on {formatUtcDay(answer.taken_down.at)}: <q>{answer.taken_down.reason}</q>. Do not pay.{" "}
          <a className="text-base font-normal underline" href={answer.taken_down.certificate_url}>What was taken down</a>
        </p>
      )}
      <div className={`rounded-lg border-l-8 p-4 ring-1 ring-slate-200 ${answer.taken_down && answer.result === "no_match" ? "border-red-600 bg-white" : TONE[answer.result]}`}>
        <p className="text-sm text-slate-500">
          {KIND_NAME[answer.type].replace(/^./, (c) => c.toUpperCase())}:{" "}
          <span className="break-all font-mono text-slate-800">{answer.type === "website" ? <DomainName domain={answer.normalized} /> : answer.normalized}</span>
        </p>
        <p className="mt-1 text-lg font-bold" data-testid="lookup-headline">{answer.taken_down && answer.result === "no_match" ? "✗ Nothing in force — a record with it was taken down" : HEADLINE[answer.result]}</p>
        {!(answer.taken_down && answer.result === "no_match") && <p className="mt-1 text-slate-800" data-testid="lookup-sentence">{sentence(answer)}</p>}
        {answer.matches.length > 0 && (
          <ul className="mt-3 space-y-2 text-sm" data-testid="lookup-matches">
            {answer.matches.slice(0, 5).map((m) => (
              <li key={m.verification_id} className="rounded bg-white/70 p-2 ring-1 ring-slate-200">
                <a className="font-medium underline [overflow-wrap:anywhere]" href={m.certificate_url}><SubjectName subject={m.subject} /></a>{" "}
                <span className="text-slate-500">({m.verification_id})</span>
                <span className="block text-slate-700">
                  {speakerOf(m.account) === "verified_organisation"
                    ? <>Stated by <span className="font-semibold text-emerald-800">{m.account.name}, a verified organisation</span></>
                    : <WithSpeaker text={`Stated by ${WHO}`} account={m.account} />}
                  {" · "}{LEVEL[m.evidence_level] ?? m.evidence_level}
                </span>
              </li>
            ))}
          </ul>
        )}
        {answer.matches.length > 5 && <p className="mt-2 text-sm text-slate-600">and {answer.matches.length - 5} more records with this {KIND_NAME[answer.type]} (all in the signed answer below).</p>}
        <p className="mt-2 text-xs text-slate-500">As of {formatUtc(answer.as_of)} · the signed answer: <a className="underline" href={`/api/v1/lookup?q=${encodeURIComponent(answer.query)}`}>/api/v1/lookup</a></p>
      </div>

      <form action="/check" method="get" className="rounded-lg border border-emerald-600 bg-white p-4" data-testid="home-check-offer">
        <p className="font-semibold">About to pay? Run the full check</p>
        <p className="mt-1 text-sm text-slate-600">
          {field
            ? "Say who you think you are paying: we check that this is on record for them, not just for someone."
            : "The full check takes an operator, a website and a payee (IBAN or wallet)."}
        </p>
        {field && <input type="hidden" name={field} value={answer.query} />}
        <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
          <label className="flex-1 text-sm">
            Operator (who you are paying)
            <input name="operator" maxLength={500} className="mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2" placeholder="Seaview Apartments Ltd or its LEI" />
          </label>
          <button type="submit" className="rounded bg-emerald-700 px-5 py-2.5 font-medium text-white hover:bg-emerald-800">Check before you pay</button>
        </div>
        {field && (
          <p className="mt-2 text-xs text-slate-500">
            Or <a className="underline" data-testid="home-check-link-prefilled" href={`/check?${new URLSearchParams({ [field]: answer.query })}`}>open the full check with this {KIND_NAME[answer.type]} filled in</a>.
          </p>
        )}
      </form>
    </div>
  );
}
