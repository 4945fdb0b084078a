import Link from "next/link";
import type { ReactNode } from "react";
import type { AuthContext } from "@/lib/accounts/types";
import { listPrincipalCandidates } from "@/lib/agents/principal-candidates";
import { spendSummary } from "@/lib/agents/spend-summary";
import { principalProblem } from "@/lib/claims/agent-authorization";
import { companyIdentity } from "@/lib/claims/company-identity";
import { getDb } from "@/lib/db/client";
import { isIssued } from "@/lib/record-model/effective-status";
import type { RecordObject } from "@/lib/public/record/serialize-record";
import { AgentPrincipalForm } from "./agent-principal-form";
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

const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const when = (iso: string) => iso.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC");
const PRINCIPAL_ROLE = "principal_record";

const TONE = {
  verified: "bg-emerald-100 text-emerald-900 ring-emerald-600",
  lapsed: "bg-amber-100 text-amber-900 ring-amber-600",
  unverified: "bg-amber-100 text-amber-900 ring-amber-600",
  active: "bg-emerald-100 text-emerald-900 ring-emerald-600",
  revoked: "bg-red-100 text-red-900 ring-red-600",
  unlinked: "bg-slate-200 text-slate-800 ring-slate-500",
} as const;

function Pill({ word, testId }: { word: string; testId: string }) {
  const tone = TONE[word as keyof typeof TONE] ?? TONE.unlinked;
  return <span data-testid={testId} className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${tone}`}>{word}</span>;
}

/** The owner's view of an agent record: its mandate, the key that signed it, its principal link (with the form to change it) and what it spent. */
async function AgentOwnerPanel({ record, auth }: { record: RecordObject; auth: AuthContext }) {
  const agent = obj((record as Record<string, unknown>).agent);
  const scope = obj(agent.scope);
  const key = agent.key ? obj(agent.key) : null;
  const standing = str(agent.principal_standing) || "unlinked";
  const link = record.links.find((l) => l.role === PRINCIPAL_ROLE) ?? null;
  const shownRecord = agent.principal_record ? obj(agent.principal_record) : null;
  const payments = spendSummary(agent.payments);
  const issued = isIssued(record.status);
  const candidates = issued ? await listPrincipalCandidates(await getDb(), auth.accountId, record.environment, principalProblem) : [];
  const row = (label: string, value: ReactNode, testId: string) => (
    <><dt className="text-slate-500">{label}</dt><dd data-testid={testId}>{value}</dd></>
  );
  const none = <span className="text-slate-500">—</span>;
  const dl = "mt-3 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm [&_dd]:[overflow-wrap:anywhere]";
  return (
    <>
      <section data-testid="agent-mandate">
        <h2 className="text-lg font-semibold">Mandate</h2>
        <dl className={dl}>
          {row("Principal", str(agent.principal) || none, "mandate-principal")}
          {row("Agent id", str(agent.agent_id) ? <code>{str(agent.agent_id)}</code> : none, "mandate-agent-id")}
          {row("Act", str(agent.act) ? <code>{str(agent.act)}</code> : none, "mandate-act")}
          {row("Scope", Object.keys(scope).length ? (
            <span>
              {str(scope.max_amount) ? <>up to <strong>{str(scope.max_amount)}</strong></> : "no amount stated"}
              {str(scope.asset) && <> {str(scope.asset)}</>}{str(scope.network) && <> on {str(scope.network)}</>}
              <span className="block text-xs text-slate-600">Stated by the mandate; amounts are never checked or enforced here.</span>
            </span>
          ) : "none stated", "mandate-scope")}
          {row("Session", str(agent.session_id) ? <code>{str(agent.session_id)}</code> : none, "mandate-session")}
          {row("Valid until", str(agent.valid_until) ? when(str(agent.valid_until)) : none, "mandate-valid-until")}
          {row("Mandate hash", str(agent.mandate_hash) ? <code className="text-xs">{str(agent.mandate_hash)}</code> : none, "mandate-hash")}
          {row("Mandate key", key && str(key.key_id) ? (
            <span className="flex flex-wrap items-center gap-2">
              {/* The issuing account's key of that id, read back with its owner named (key ids are unique per account only). */}
              {str(key.url) ? <a className="font-mono underline" href={str(key.url)} data-testid="mandate-key-link">{str(key.key_id)}</a> : <code>{str(key.key_id)}</code>}
              <Pill word={str(key.status) || "unknown"} testId="mandate-key-status" />
              {str(key.environment) && <span className="text-xs text-slate-600" data-testid="mandate-key-environment">{str(key.environment)} key</span>}
              {str(key.status) === "revoked" && <span className="text-xs text-slate-600">The key was revoked after it signed; the record stands, and its status says so.</span>}
            </span>
          ) : <span className="text-slate-600">none: the mandate was not signed (your own statement)</span>, "mandate-key")}
        </dl>
      </section>

      <section data-testid="agent-principal">
        <h2 className="text-lg font-semibold">Principal link</h2>
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <Pill word={standing} testId="principal-standing" />
          <span className="text-slate-700">
            {standing === "verified" && "The agent rests on your verified organisation's company record, active now, and names it as principal."}
            {standing === "unverified" && "The company record is active, but it is not your verified organisation's (same LEI), or the principal is not its legal name: verifiers are not told the principal is verified."}
            {standing === "lapsed" && <>The company record it rests on is {link?.status ?? "no longer active"}: verifiers see the link as lapsed.</>}
            {standing === "unlinked" && "The agent rests on no company record: only the principal's name as stated."}
          </span>
        </div>
        {link && (
          <p className="mt-2 text-sm" data-testid="principal-record">
            Company record <Link className="font-mono underline" href={`/records/${link.verification_id}`}>{link.verification_id}</Link>
            {shownRecord && <> ({str(shownRecord.subject)}) · <a className="underline" href={`/r/${encodeURIComponent(link.verification_id)}`}>certificate</a></>}
          </p>
        )}
        {issued ? (
          <AgentPrincipalForm id={record.verification_id} environment={record.environment} linked={link?.verification_id ?? null}
            candidates={candidates} newHref={`/records/new?type=${companyIdentity.type}`} />
        ) : <p className="mt-2 text-sm text-slate-600">Not issued: there is no link to change.</p>}
      </section>

      {payments && (
        <section data-testid="agent-payments">
          <h2 className="text-lg font-semibold">Payments from this agent&apos;s wallets</h2>
          <p className="mt-2 text-sm"><span data-testid="payments-count">{payments.count}</span> payment{payments.count === 1 ? "" : "s"} recorded.</p>
          {payments.totals.length > 0 && (
            <dl className={dl} data-testid="payments-totals">
              {payments.totals.map((t, i) => <div key={i} className="contents"><dt className="text-slate-500">{t.label}</dt><dd className="font-mono">{t.amount}</dd></div>)}
            </dl>
          )}
          <p className="mt-2 text-xs text-slate-600">Summed, not checked against the mandate&apos;s maximum amount.</p>
        </section>
      )}
    </>
  );
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
      ? <>The mandate key <code>{str(evidence.principal_key_id)}</code> of the issuing account, its standing and its owner are public at the key&apos;s link under
        “Mandate key” (<code>/keys/&lt;account id&gt;/&lt;key id&gt;</code>); the signature covers the canonical JSON of the account id and the mandate fields.</>
      : undefined,
  }),
  OwnerPanel: AgentOwnerPanel,
  Facts: AgentPayments,
};
