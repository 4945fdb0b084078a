import { DomainName } from "@/components/domain-name";
import { shown, str, type ClaimUi, type Evidence } from "./types";

const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v } : {});

function payee(evidence: Evidence) {
  const p = obj(evidence.payee);
  return p.type === "iban"
    ? <>the bank account <code className="break-all">{str(p.value)}</code>{str(p.account_name) ? <> ({str(p.account_name)})</> : null}</>
    : <>the {str(p.network)} wallet <code className="break-all">{str(p.value)}</code></>;
}

/** The parts a listing can leave to a reviewer, in the words the review page uses. */
const PART_NAMES: Record<string, string> = {
  listing_link: "the listing link", domain: "the operator's website", payee: "the payee (IBAN and its holder)", licence: "the licence", operator: "the operator",
};

/**
 * Everything a listing's reviewer is asked to confirm, beside the documents (issue 39): which
 * parts wait for them, and every fact of the listing — operator, link, website, payee with its
 * holder and bank, licence — each with the record it rests on, if any.
 */
function ListingReview({ evidence }: { evidence: Evidence }) {
  const p = obj(evidence.payee);
  const l = obj(evidence.licence);
  const parts = Array.isArray(evidence.reviewed_parts) ? evidence.reviewed_parts.map(String) : [];
  const confirm = (part: string) => parts.includes(part)
    ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900" data-testid={`confirm-${part}`}>confirm</span>
    : null;
  const val = (v: unknown) => (typeof v === "string" && v !== "" ? v : "—");
  const url = str(evidence.listing_url);
  return (
    <div className="space-y-3 text-sm">
      <p className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950" data-field="evidence.reviewed_parts" data-testid="reviewed-parts">
        {parts.length > 0
          ? <>You confirm: {parts.map((x, i) => <span key={x}>{i > 0 && ", "}<strong>{PART_NAMES[x] ?? x}</strong></span>)}. Everything else below rests on a record of this service.</>
          : <>Every part rests on a record of this service: nothing for you to confirm beyond the listing page.</>}
      </p>
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 [&_dd]:[overflow-wrap:anywhere]" data-testid="evidence">
        <dt className="text-slate-500">Operator</dt>
        <dd data-field="evidence.operator"><strong>{shown(evidence, "operator")}</strong> <span className="text-slate-600">(the account&apos;s verified organisation: checked by the service)</span></dd>
        <dt className="text-slate-500">Listing link{confirm("listing_link")}</dt>
        <dd data-field="evidence.listing_url">{/^https?:\/\//i.test(url) ? <a className="break-all underline" href={url} target="_blank" rel="noopener noreferrer">{url}</a> : "—"}</dd>
        <dt className="text-slate-500">Operator&apos;s website{confirm("domain")}</dt>
        <dd data-field="evidence.domain"><DomainName domain={str(evidence.domain)} />{evidence.domain_record ? <> — record <code>{shown(evidence, "domain_record")}</code></> : <> — no domain record</>}</dd>
        <dt className="text-slate-500">Paid to{confirm("payee")}</dt>
        <dd data-field="evidence.payee.value">
          {p.type === "iban" ? "Bank account (IBAN)" : `Wallet on ${val(p.network)}`}: <code className="break-all">{val(p.value)}</code>
          {evidence.payee_record ? <> — record <code>{shown(evidence, "payee_record")}</code></> : null}
        </dd>
        <dt className="text-slate-500">Account holder</dt><dd data-field="evidence.payee.account_name">{val(p.account_name)}</dd>
        <dt className="text-slate-500">Bank</dt><dd data-field="evidence.payee.bank_name">{val(p.bank_name)}</dd>
        <dt className="text-slate-500">Licence authority{confirm("licence")}</dt><dd data-field="evidence.licence.authority">{val(l.authority)}</dd>
        <dt className="text-slate-500">Licence number</dt>
        <dd data-field="evidence.licence.number">{val(l.number)}{evidence.licence_record ? <> — record <code>{shown(evidence, "licence_record")}</code></> : null}</dd>
      </dl>
    </div>
  );
}

export const verifiedListingUi: ClaimUi = {
  type: "verified_listing",
  labels: { legal_name: "Legal name", lei: "LEI" },
  scope: (evidence) => ({
    proved: (
      <>The listing <a className="break-all underline" href={str(evidence.listing_url)} rel="nofollow noopener noreferrer">{str(evidence.listing_url)}</a> is
        run by <strong>{str(evidence.operator)}</strong>, whose website is <strong><DomainName domain={str(evidence.domain)} /></strong>, and is paid to {payee(evidence)}.
        Each part rests on a record of this service (listed below with its standing) or was confirmed by a reviewer.</>
    ),
    notProved: "That the offer on the listing is genuine, available or fairly priced, or how the operator behaves. Pay only to the payee named here, and only while every part below stands.",
  }),
  ReviewEvidence: ListingReview,
};
