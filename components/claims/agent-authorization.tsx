import { AgentPayments } from "./agent-payments";
import { str, type ClaimUi, type Evidence } from "./types";

function limits(evidence: Evidence) {
  const scope = typeof evidence.scope === "object" && evidence.scope !== null ? (evidence.scope as Record<string, unknown>) : {};
  const parts = [
    str(scope.max_amount) && `up to ${str(scope.max_amount)}${str(scope.asset) ? ` ${str(scope.asset)}` : ""}`,
    !str(scope.max_amount) && str(scope.asset) && `in ${str(scope.asset)}`,
    str(scope.network) && `on ${str(scope.network)}`,
    str(evidence.session_id) && `for session ${str(evidence.session_id)}`,
  ].filter(Boolean);
  return parts.length ? `, ${parts.join(", ")}` : "";
}

export const agentAuthorizationUi: ClaimUi = {
  type: "agent_authorization",
  scope: (evidence) => ({
    proved: str(evidence.mandate_signature) ? (
      <>The principal&apos;s mandate key <code>{str(evidence.principal_key_id)}</code> signed this mandate: agent <strong>{str(evidence.agent_id)}</strong> may{" "}
        <strong>{str(evidence.act)}</strong> for <strong>{str(evidence.principal)}</strong>{limits(evidence)}
        {str(evidence.valid_until) ? <> until {str(evidence.valid_until).replace("T", " ").replace(/(\.\d+)?Z$/, " UTC")}</> : null}.</>
    ) : undefined,
    notProved:
      "That the agent stays within the mandate (amounts are never checked or enforced here), who runs the agent, or that the " +
      "principal named is the company it claims to be — unless the record rests on a checked company record, shown below." +
      (str(evidence.mandate_signature) ? "" : " Nothing in this mandate was checked: no signature was given."),
    recheck: str(evidence.principal_key_id)
      ? <>The mandate key and its standing are public at <a className="underline" href={`/keys/${encodeURIComponent(str(evidence.principal_key_id))}`}>/keys/{str(evidence.principal_key_id)}</a>; the signature covers the canonical JSON of the account id and the mandate fields.</>
      : undefined,
  }),
  Facts: AgentPayments,
};
