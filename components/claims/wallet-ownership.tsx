import { checkedAt, shown, str, type ClaimUi } from "./types";

export const walletOwnershipUi: ClaimUi = {
  type: "wallet_ownership",
  labels: { signature_scheme: "Signature scheme", challenge_id: "Challenge" },
  scope: (evidence) => ({
    proved: (
      <>Control of the key behind the {str(evidence.network)} address <code className="break-all">{str(evidence.address)}</code> at {checkedAt(evidence)}: it signed the challenge message ({str(evidence.signature_scheme)}).</>
    ),
    notProved: "Who holds the key (identity), the address's balance or history, or that funds sent to it are safe.",
    recheck: <>The signed message and signature are part of the signed evidence above; any wallet library can verify them again.</>,
  }),
  ReviewEvidence: ({ evidence }) => (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
      <dt className="text-slate-500">Address</dt><dd data-field="evidence.address"><code className="break-all">{shown(evidence, "address")}</code></dd>
      <dt className="text-slate-500">Network</dt><dd data-field="evidence.network">{shown(evidence, "network")}</dd>
      <dt className="text-slate-500">Message signed</dt><dd data-field="evidence.message"><pre className="whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{shown(evidence, "message")}</pre></dd>
      <dt className="text-slate-500">Signature</dt><dd data-field="evidence.signature"><code className="break-all text-xs">{shown(evidence, "signature")}</code></dd>
      <dt className="text-slate-500">Checked at</dt><dd>{shown(evidence, "checked_at")}</dd>
    </dl>
  ),
};
