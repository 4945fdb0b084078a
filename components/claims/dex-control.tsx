import { DomainName } from "@/components/domain-name";
import { checkedAt, shown, str, type ClaimUi, type Evidence } from "./types";

const SUBTYPE: Record<string, string> = { builder: "builder", vault_leader: "vault leader", wallet_owner: "wallet owner" };

/** The snapshot taken at approval, in words: a builder's approved maximum fee, or a vault's public details. */
function Snapshot({ evidence }: { evidence: Evidence }) {
  const s = evidence.snapshot as Record<string, unknown> | null | undefined;
  if (!s) return <>{str(evidence.snapshot_note) || "No snapshot."}</>;
  if (s.approved_max_fee !== undefined) {
    return <>At approval ({str(s.taken_at).replace("T", " ").replace(/\.\d+Z$/, " UTC")}), the wallet the builder named had approved a maximum builder fee of <strong>{str(s.approved_max_fee)}</strong> per order — an approval, not the fee charged.</>;
  }
  return (
    <>At approval, vault <strong>{str(s.vault_name)}</strong> (<code className="break-all">{str(s.vault_address)}</code>) was led by the proved wallet, had {String(s.followers)} follower{s.followers === 1 ? "" : "s"}, and {s.deposits_open ? "accepted deposits" : "did not accept deposits"}.</>
  );
}

const age = (evidence: Evidence) => {
  const t = Date.parse(str(evidence.checked_at));
  return Number.isNaN(t) ? "unknown" : `${Math.floor((Date.now() - t) / 3600_000)} h ago`;
};

export const dexControlUi: ClaimUi = {
  type: "dex_control",
  labels: { challenge_id: "Challenge", legal_name: "Legal name" },
  scope: (evidence) => ({
    proved: (
      <>
        Control, at {checkedAt(evidence)}, of the exchange wallet <code className="break-all">{str(evidence.address)}</code> (as {SUBTYPE[str(evidence.subtype)] ?? "owner"}; it signed the challenge)
        {evidence.domain ? <>, of the domain <strong><DomainName domain={str(evidence.domain)} /></strong> (a DNS record of this account)</> : null}
        {" "}and of the social account <strong>{str(evidence.social_handle)}</strong>{evidence.mode === "domainless" ? " (its post carrying the challenge token)" : ""}, confirmed by a reviewer.{" "}
        <Snapshot evidence={evidence} />
      </>
    ),
    notProved: "Who is behind the accounts (identity), trading performance, or the safety of any deposit; it does not approve fees or deposits.",
    recheck: <>Valid 90 days from approval; renewal needs fresh evidence.</>,
  }),
  ReviewEvidence: ({ evidence }) => (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-2 text-sm [&_dd]:[overflow-wrap:anywhere]" data-testid="evidence">
      <dt className="text-slate-500">Subtype</dt><dd>{SUBTYPE[str(evidence.subtype)] ?? shown(evidence, "subtype")}{evidence.mode === "domainless" ? " (domainless)" : ""}</dd>
      <dt className="text-slate-500">Wallet</dt><dd data-field="evidence.address"><code className="break-all">{shown(evidence, "address")}</code> — signature {evidence.signature_checked ? "checked" : "not checked yet"}</dd>
      <dt className="text-slate-500">Social account</dt><dd data-field="evidence.social_handle">{shown(evidence, "social_handle")}</dd>
      {evidence.mode === "domainless"
        ? <><dt className="text-slate-500">Post</dt><dd data-field="evidence.social_post_url"><a className="break-all underline" href={str(evidence.social_post_url)} rel="noreferrer noopener" target="_blank">{shown(evidence, "social_post_url")}</a></dd>
          <dt className="text-slate-500">Token the post must carry</dt><dd data-field="evidence.token"><code data-testid="dex-token">{shown(evidence, "token")}</code></dd></>
        : <><dt className="text-slate-500">Domain</dt><dd data-field="evidence.domain">{shown(evidence, "domain")} (record {shown(evidence, "domain_record")})</dd></>}
      {evidence.vault_address ? <><dt className="text-slate-500">Vault</dt><dd data-field="evidence.vault_address"><code className="break-all">{shown(evidence, "vault_address")}</code></dd></> : null}
      <dt className="text-slate-500">Evidence checked</dt><dd data-testid="evidence-age">{shown(evidence, "checked_at")} ({age(evidence)}; must be under 24 h at approval)</dd>
    </dl>
  ),
};
