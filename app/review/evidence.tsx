import { claimUi } from "@/components/claims";
import { shown } from "@/components/claims/types";

/** A submission's evidence as a reviewer needs to see it, per claim type. Links open in a new tab without referrer. */
export function EvidenceView({ claimType, evidence, submitted }: {
  claimType: string; evidence: Record<string, unknown>; submitted: unknown;
}) {
  const Own = claimUi(claimType)?.ReviewEvidence;
  if (Own) return <Own evidence={evidence} />;
  const s = (k: string) => shown(evidence, k);
  const url = typeof evidence.source_url === "string" && /^https?:\/\//i.test(evidence.source_url) ? evidence.source_url : null;
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] gap-x-6 gap-y-2 text-sm" data-testid="evidence">
      <dt className="text-slate-500">Source name</dt><dd data-testid="source-name" data-field="evidence.source_name">{s("source_name")}</dd>
      <dt className="text-slate-500">Source URL</dt>
      <dd className="break-all" data-field="evidence.source_url">
        {url ? <a className="underline" href={url} target="_blank" rel="noopener noreferrer" data-testid="source-url">{url}</a> : s("source_url")}
      </dd>
      <dt className="text-slate-500">Checked at (customer)</dt><dd data-field="evidence.checked_at">{s("checked_at")}</dd>
      {submitted !== undefined && submitted !== null && (
        <>
          <dt className="text-slate-500">Further evidence (private)</dt>
          <dd><pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">{JSON.stringify(submitted, null, 2)}</pre></dd>
        </>
      )}
    </dl>
  );
}
