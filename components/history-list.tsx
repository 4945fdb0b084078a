import { formatUtc } from "@/lib/format/dates";
import { STATUS_TEXT } from "@/lib/record-model/evidence-level-text";

export type ShownEntry = { status: string; at: Date; reason: string | null; by: string };

/** A run of a record's lifecycle history, oldest first (the certificate's latest entries, or a page of older ones). */
export function HistoryList({ entries }: { entries: readonly ShownEntry[] }) {
  return (
    <ol className="mt-2 space-y-1 text-sm [overflow-wrap:anywhere]" data-testid="history">
      {entries.map((h, i) => (
        <li key={i}>
          <span className="font-medium">{STATUS_TEXT[h.status]?.label ?? h.status}</span> — {formatUtc(h.at)} by {h.by}
          {h.reason ? `: ${h.reason}` : ""}
        </li>
      ))}
    </ol>
  );
}

/** The link to the entries before those shown, or nothing when they are the oldest. */
export function OlderEntriesLink({ recordId, before }: { recordId: string; before: number | null }) {
  if (before === null) return null;
  return (
    <a className="mt-3 inline-block rounded border border-slate-300 px-3 py-2 text-sm font-medium underline" data-testid="older-entries"
      href={`/r/${encodeURIComponent(recordId)}/history?before=${before}`}>
      Older entries
    </a>
  );
}
