import { checkedAt, shown, str, type ClaimUi } from "./types";

export const companyIdentityUi: ClaimUi = {
  type: "company_identity",
  labels: { lei: "LEI", legal_name: "Legal name", register_url: "Register entry", next_renewal_date: "Next renewal" },
  scope: (evidence) => ({
    proved: (
      <>At {checkedAt(evidence)} the LEI register listed <strong>{str(evidence.legal_name)}</strong> under LEI <code>{str(evidence.lei)}</code>
        {str(evidence.jurisdiction) ? <> ({str(evidence.jurisdiction)})</> : null}: registration {str(evidence.registration_status)}, entity {str(evidence.entity_status)}.</>
    ),
    notProved: "Who is behind this website, wallet or message: the register names the entity, not who speaks for it. Nor its solvency or good conduct.",
    recheck: str(evidence.register_url)
      ? <>Look it up yourself: <a className="break-all underline" href={str(evidence.register_url)} rel="noopener noreferrer">{str(evidence.register_url)}</a>. The service re-checks it periodically and suspends this record if the registration lapses or the entity is no longer active.</>
      : undefined,
  }),
  ReviewEvidence: ({ evidence }) => (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
      <dt className="text-slate-500">LEI</dt><dd data-field="evidence.lei"><code>{shown(evidence, "lei")}</code></dd>
      <dt className="text-slate-500">Register</dt>
      <dd><a className="underline" href={`https://search.gleif.org/#/record/${shown(evidence, "lei")}`} target="_blank" rel="noopener noreferrer">search.gleif.org</a></dd>
    </dl>
  ),
};
