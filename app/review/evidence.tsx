/** A submission's evidence as a reviewer needs to see it, per claim type. Links open in a new tab without referrer. */
export function EvidenceView({ claimType, evidence, submitted }: {
  claimType: string; evidence: Record<string, unknown>; submitted: unknown;
}) {
  const s = (k: string) => (evidence[k] === undefined || evidence[k] === null ? "—" : String(evidence[k]));
  if (claimType === "domain_ownership") {
    return (
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
        <dt className="text-slate-500">Domain</dt><dd>{s("domain")}</dd>
        <dt className="text-slate-500">TXT name</dt><dd><code>{s("txt_name")}</code></dd>
        <dt className="text-slate-500">TXT value expected</dt><dd><code className="break-all">{s("txt_value")}</code></dd>
        <dt className="text-slate-500">Checked at</dt><dd>{s("checked_at")}</dd>
        <dt className="text-slate-500">Check yourself</dt><dd><code>dig +short TXT {s("txt_name")}</code></dd>
      </dl>
    );
  }
  if (claimType === "wallet_ownership") {
    return (
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
        <dt className="text-slate-500">Address</dt><dd><code className="break-all">{s("address")}</code></dd>
        <dt className="text-slate-500">Network</dt><dd>{s("network")}</dd>
        <dt className="text-slate-500">Message signed</dt><dd><pre className="whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{s("message")}</pre></dd>
        <dt className="text-slate-500">Signature</dt><dd><code className="break-all text-xs">{s("signature")}</code></dd>
        <dt className="text-slate-500">Checked at</dt><dd>{s("checked_at")}</dd>
      </dl>
    );
  }
  const url = typeof evidence.source_url === "string" && /^https?:\/\//i.test(evidence.source_url) ? evidence.source_url : null;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
      <dt className="text-slate-500">Source name</dt><dd data-testid="source-name">{s("source_name")}</dd>
      <dt className="text-slate-500">Source URL</dt>
      <dd className="break-all">
        {url ? <a className="underline" href={url} target="_blank" rel="noopener noreferrer" data-testid="source-url">{url}</a> : s("source_url")}
      </dd>
      <dt className="text-slate-500">Checked at (customer)</dt><dd>{s("checked_at")}</dd>
      {submitted !== undefined && submitted !== null && (
        <>
          <dt className="text-slate-500">Further evidence (private)</dt>
          <dd><pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{JSON.stringify(submitted, null, 2)}</pre></dd>
        </>
      )}
    </dl>
  );
}
