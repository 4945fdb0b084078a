/**
 * A record's public evidence for people: labels instead of keys, links for addresses that
 * are links, dates in UTC, nested values flattened one level. The claim type's own UI piece
 * says what it means (components/claims/) and names its own keys (`labels`); this lists what was kept.
 */
import { formatUtc } from "@/lib/format/dates";

type Labels = Readonly<Record<string, string>>;
/** The keys every type may keep (the reviewed fallback's source fields). */
const SHARED: Labels = { source_name: "Source", source_url: "Source link", checked_at: "Checked at" };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

const labelOf = (key: string, labels: Labels = {}) =>
  labels[key] ?? SHARED[key] ?? (key.charAt(0).toUpperCase() + key.slice(1)).replaceAll("_", " ");

function Value({ v, labels }: { v: unknown; labels?: Labels }) {
  if (v === null || v === undefined || v === "") return <span className="text-slate-400">—</span>;
  if (typeof v === "string" && /^https?:\/\/\S+$/i.test(v)) {
    return <a className="break-all text-sky-800 underline" href={v} rel="nofollow noopener noreferrer">{v}</a>;
  }
  if (typeof v === "string" && ISO.test(v)) return <span>{formatUtc(v)}</span>;
  if (typeof v === "string") return <span className="break-all">{v}</span>;
  if (typeof v === "number" || typeof v === "boolean") return <span>{String(v)}</span>;
  if (Array.isArray(v)) return <span className="break-all">{v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(", ")}</span>;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-3">
      {Object.entries(v as Record<string, unknown>).map(([k, x]) => (
        <div key={k} className="contents"><dt className="text-slate-500">{labelOf(k, labels)}</dt><dd><Value v={x} labels={labels} /></dd></div>
      ))}
    </dl>
  );
}

export function EvidenceList({ evidence, labels }: { evidence: Record<string, unknown>; labels?: Labels }) {
  const entries = Object.entries(evidence);
  if (entries.length === 0) return <p className="text-sm text-slate-600">No evidence: this is a statement only.</p>;
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" data-testid="evidence-list">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{labelOf(k, labels)}</dt>
          <dd className="mb-2 sm:mb-0"><Value v={v} labels={labels} /></dd>
        </div>
      ))}
    </dl>
  );
}
