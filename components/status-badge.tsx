import { STATUS_TEXT } from "@/lib/record-model/evidence-level-text";

const TONES = {
  ok: "bg-emerald-100 text-emerald-900 ring-emerald-600",
  warn: "bg-amber-100 text-amber-900 ring-amber-600",
  bad: "bg-red-100 text-red-900 ring-red-600",
  muted: "bg-slate-200 text-slate-800 ring-slate-500",
} as const;

/** `unchecked`: an active record nobody checked (or a sandbox one) is shown without the green of a verified one. */
export function StatusBadge({ status, unchecked = false }: { status: string; unchecked?: boolean }) {
  const known = STATUS_TEXT[status] ?? { label: status, tone: "muted" as const };
  const s = unchecked && known.tone === "ok" ? { ...known, tone: "muted" as const } : known;
  return (
    <span data-testid="status-badge" className={`inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold ring-2 ${TONES[s.tone]}`}>
      {s.label}
    </span>
  );
}
