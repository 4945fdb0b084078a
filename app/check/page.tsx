import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { DomainName } from "@/components/domain-name";
import { SelfName } from "@/components/speaker-name";
import { SiteFooter, SiteHeader, column } from "@/components/site-chrome";
import { checkParts, checkQuerySchema, type PartAnswer, type Verdict } from "@/lib/public/check/answer-check";
import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/rate-limit";
import { lookupLimiter } from "@/lib/public/lookup/limiter";
import { formatUtc, formatUtcDay } from "@/lib/format/dates";

export const metadata: Metadata = {
  title: "Check before you pay",
  description: "Is this website or payee really the operator's? Check it against Proof Records' signed records.",
};
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const LEVEL: Record<string, string> = {
  source_verified: "checked automatically against a source (DNS, a wallet signature, a register)",
  evidence_verified: "confirmed by a Proof Records reviewer",
  participant_attested: "only stated by the account itself — not checked",
};

const TONE: Record<Verdict, string> = {
  match: "border-emerald-600 bg-emerald-50",
  close_match: "border-amber-500 bg-amber-50",
  mismatch: "border-red-600 bg-red-50",
  unverified_operator: "border-amber-500 bg-amber-50",
  not_on_record: "border-slate-400 bg-white",
};

const HEADLINE: Record<Verdict, string> = {
  match: "✓ Match",
  close_match: "≈ Close match — check the name",
  mismatch: "✗ Different operator",
  unverified_operator: "! Not a verified organisation",
  not_on_record: "– Not on record",
};

/** The operator as the answer names it: a verified organisation's legal name when the operator part matched one, else as asked. */
const askedName = (r: Awaited<ReturnType<typeof checkParts>>) => (r.parts.operator?.verdict === "match" ? r.parts.operator.on_record_for : r.operator);

/** What one part's verdict means, in a sentence a stranger can act on. */
function partSentence(a: PartAnswer, operator: string | null, label: string): ReactNode {
  const who = a.on_record_for ?? "an unnamed account";
  if (a.taken_down && a.verdict === "mismatch") {
    return <>Proof Records took a record with this {label.toLowerCase()} down on {formatUtcDay(a.taken_down.at)}: <q>{a.taken_down.reason}</q>. Do not pay. <a className="underline" href={a.taken_down.certificate_url}>What was taken down</a></>;
  }
  if (a.shared_name) {
    return label === "Operator"
      ? `More than one verified organisation is called ${who}. A name alone cannot say which one you mean: give its LEI or its website.`
      : `On record for ${who}${a.lei ? ` (LEI ${a.lei})` : ""} — one of several verified organisations with the name you entered. Make sure it is the one you mean.`;
  }
  if (label === "Operator" && a.verdict === "match") {
    return `${who} is a verified organisation${a.lei ? ` (LEI ${a.lei})` : ""}. That says who they are — not that a website or payee is theirs.`;
  }
  switch (a.verdict) {
    case "match":
      return `On record for ${who}, a verified organisation${a.lei ? ` (LEI ${a.lei})` : ""}.`;
    case "close_match":
      return `On record for ${who}, a verified organisation — not exactly "${operator ?? a.given}". Did you mean ${who}? If the name you were given differs, be careful.`;
    case "mismatch":
      if (!a.name_verified) {
        return <>Warning: not on record for {operator ?? "the operator you entered"}, a verified organisation — only for another account{a.on_record_for ? <>, calling itself “<SelfName name={a.on_record_for} />” (name not verified)</> : ""}. Do not pay until you have checked.</>;
      }
      return `Warning: on record for a DIFFERENT operator: ${who}, a verified organisation. Do not pay until you have checked.`;
    case "unverified_operator":
      return a.on_record_for
        ? <>Only an account calling itself “<SelfName name={a.on_record_for} />” has this on record — that name was not verified by anyone. This is no assurance of who you are dealing with.</>
        : "Only an unnamed account that is not a verified organisation has this on record. This is no assurance of who you are dealing with.";
    case "not_on_record":
      return `Not on record${a.normalized === null ? " — not recognised as a valid value of its kind" : ""}. That proves nothing either way: ask the operator for a Proof Records certificate.`;
  }
}

function Answer({ label, a, operator, overall }: { label: string; a: PartAnswer; operator: string | null; overall: Verdict }) {
  // One colour per answer (issue 38): a matched operator is green only when the whole answer is; otherwise it is a plain
  // fact ("a verified organisation") beside the warning, never a green tick next to red or amber.
  const muted = label === "Operator" && a.verdict === "match" && overall !== "match";
  const headline = a.taken_down && a.verdict === "mismatch" ? "✗ Taken down by Proof Records"
    : a.shared_name ? "≈ More than one organisation has this name"
    : muted ? "A verified organisation — see the warning above"
    : HEADLINE[a.verdict];
  return (
    <li className={`rounded-lg border-l-8 p-4 shadow-sm ring-1 ring-slate-200 ${muted ? TONE.not_on_record : TONE[a.verdict]}`} data-testid={`verdict-${label.toLowerCase()}`} data-verdict={a.verdict}>
      <p className="text-sm text-slate-500">{label}: <span className="break-all font-mono text-slate-800">{label === "Website" ? <DomainName domain={a.given} /> : a.given}</span></p>
      <p className="mt-1 text-base font-bold">{headline}</p>
      <p className={`mt-1 text-lg font-semibold ${a.verdict === "mismatch" ? "text-red-800" : ""}`} role={a.verdict === "mismatch" ? "alert" : undefined}>
        {partSentence(a, operator, label)}
      </p>
      {a.evidence_level && <p className="mt-1 text-sm text-slate-700">The record was {LEVEL[a.evidence_level] ?? a.evidence_level}.</p>}
      <p className="mt-1 text-xs text-slate-500">
        As of {formatUtc(a.as_of)}{a.certificate_url && <> · <a className="underline" href={a.certificate_url}>certificate {a.verification_id}</a></>}
      </p>
    </li>
  );
}

/** The one sentence the answer starts with, as the decision composed it (lib/trust/check-overall.ts). */
function Overall({ result }: { result: Awaited<ReturnType<typeof checkParts>> }) {
  return (
    <p className={`mt-6 max-w-3xl rounded-lg border-l-8 p-4 text-xl font-bold ${TONE[result.overall]}`} data-testid="check-overall" data-verdict={result.overall}>
      {result.summary}
    </p>
  );
}

/** "Check before you pay": a plain GET form and server-rendered verdicts; works without JavaScript. */
export default async function CheckPage({ searchParams }: Props) {
  const sp = await searchParams;
  const parsed = checkQuerySchema.safeParse({ operator: one(sp.operator), website: one(sp.website), payee: one(sp.payee) });
  const q = parsed.success ? parsed.data : {};
  const asked = Boolean(q.operator || q.website || q.payee);
  let limited = false;
  let result: Awaited<ReturnType<typeof checkParts>> | null = null;
  if (asked) {
    const hit = await lookupLimiter().hit(`lookup:${clientAddress(await headers())}`);
    if (hit.ok) result = await checkParts(await getDb(), q);
    else limited = true;
  }
  const field = "mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2";
  return (
    <>
      <SiteHeader />
      <main className={`${column} py-10`}>
        <h1 className="text-2xl font-semibold sm:text-3xl">Check before you pay</h1>
        {/* With an answer, the answer comes first: on a phone it is above the fold, the form to ask again below it. */}
        {!result && (
          <p className="mt-2 max-w-3xl text-slate-700">
            About to pay a holiday rental, a marketplace seller or a crypto merchant? Enter what you were given. We say whether the
            website and the payee are on record for that operator — only live, public records in force count.
          </p>
        )}
        {!parsed.success && <p role="alert" className="mt-4 text-red-700">Each field takes at most 500 characters of plain text.</p>}
        {limited && <p role="alert" className="mt-6 text-red-700">Too many checks from your network in the last minute; wait a minute and try again.</p>}
        {result && <Overall result={result} />}
        {result && (
          <ul className="mt-4 max-w-3xl space-y-3" data-testid="check-results">
            {result.parts.website && <Answer label="Website" a={result.parts.website} operator={askedName(result)} overall={result.overall} />}
            {result.parts.payee && <Answer label="Payee" a={result.parts.payee} operator={askedName(result)} overall={result.overall} />}
            {result.parts.operator && <Answer label="Operator" a={result.parts.operator} operator={result.operator} overall={result.overall} />}
          </ul>
        )}
        {result && <h2 className="mt-10 text-lg font-semibold">Check something else</h2>}
        <form method="get" className={`${result ? "mt-3" : "mt-6"} grid max-w-3xl gap-4 sm:grid-cols-3`} data-testid="check-form">
          <label className="text-sm">Operator<input name="operator" defaultValue={q.operator} maxLength={500} className={field} placeholder="Seaview Apartments Ltd or its LEI" /></label>
          <label className="text-sm">Website<input name="website" defaultValue={q.website} maxLength={500} className={field} placeholder="seaview-apartments.com" /></label>
          <label className="text-sm">Payee (IBAN or wallet)<input name="payee" defaultValue={q.payee} maxLength={500} className={field} placeholder="DE89 3704 …" /></label>
          <div className="sm:col-span-3"><button className="rounded bg-slate-900 px-5 py-2.5 font-medium text-white hover:bg-slate-700" type="submit">Check</button></div>
        </form>
        <p className="mt-8 max-w-3xl text-sm text-slate-600">
          Green means a Proof Records reviewer verified the organisation behind the record and the record was checked and still
          stands. A name an account merely gave itself is never shown as verified.
        </p>
        <p className="mt-8 max-w-3xl text-sm text-slate-600">
          The same answer, signed, for programs: <code className="break-all">GET /api/v1/check?operator=&amp;website=&amp;payee=</code>.
        </p>
      </main>
      <SiteFooter />
    </>
  );
}
