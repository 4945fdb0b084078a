import { DomainName } from "@/components/domain-name";
import { str, type ClaimUi, type Evidence } from "./types";

const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v } : {});

function payee(evidence: Evidence) {
  const p = obj(evidence.payee);
  return p.type === "iban"
    ? <>the bank account <code className="break-all">{str(p.value)}</code>{str(p.account_name) ? <> ({str(p.account_name)})</> : null}</>
    : <>the {str(p.network)} wallet <code className="break-all">{str(p.value)}</code></>;
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
};
