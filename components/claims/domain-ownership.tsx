import { checkedAt, shown, str, type ClaimUi } from "./types";

export const domainOwnershipUi: ClaimUi = {
  type: "domain_ownership",
  labels: { txt_name: "DNS record", txt_value: "DNS value", challenge_id: "Challenge" },
  scope: (evidence) => ({
    proved: (
      <>Control of DNS for <strong>{str(evidence.domain)}</strong> at {checkedAt(evidence)}: the TXT record <code>{str(evidence.txt_name)}</code> held the value <code className="break-all">{str(evidence.txt_value)}</code>.</>
    ),
    notProved: "Who owns or runs the domain (identity), or that its website or business can be trusted.",
    recheck: (
      <>Re-check it yourself: <code>{`dig +short TXT ${str(evidence.txt_name)}`}</code> must show <code className="break-all">&quot;{str(evidence.txt_value)}&quot;</code>. The service re-checks it periodically and suspends this record when it is gone.</>
    ),
  }),
  ReviewEvidence: ({ evidence }) => (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
      <dt className="text-slate-500">Domain</dt><dd data-field="evidence.domain">{shown(evidence, "domain")}</dd>
      <dt className="text-slate-500">TXT name</dt><dd data-field="evidence.txt_name"><code>{shown(evidence, "txt_name")}</code></dd>
      <dt className="text-slate-500">TXT value expected</dt><dd data-field="evidence.txt_value"><code className="break-all">{shown(evidence, "txt_value")}</code></dd>
      <dt className="text-slate-500">Checked at</dt><dd>{shown(evidence, "checked_at")}</dd>
      <dt className="text-slate-500">Check yourself</dt><dd><code>dig +short TXT {shown(evidence, "txt_name")}</code></dd>
    </dl>
  ),
};
