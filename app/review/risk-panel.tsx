import Link from "next/link";
import type { RiskAssessment } from "@/lib/reviews/risk-signals";
import { formatUtc } from "@/lib/format/dates";

/**
 * The risk signals at the top of a console page (submission, organisation application, plan
 * request): high ones in red, notices in amber; "none" said plainly. With four eyes, who approved
 * first and that a second reviewer must approve.
 */
export function RiskPanel({ risk, accountId, firstApproval, what = "submission", decides = true }: {
  risk: RiskAssessment; accountId?: string; what?: string;
  firstApproval?: { by: string; at: Date; mine: boolean } | null;
  /** The page approves something (four eyes apply); false on an account's page. */
  decides?: boolean;
}) {
  const high = risk.level === "high";
  return (
    <section
      data-testid="risk-panel" data-level={risk.level}
      className={`rounded border px-4 py-3 text-sm ${high ? "border-red-300 bg-red-50 text-red-950" : risk.level === "notice" ? "border-amber-300 bg-amber-50 text-amber-950" : "border-slate-300 bg-slate-50 text-slate-800"}`}
    >
      <h2 className="font-semibold">
        {high ? (decides ? `High risk: this ${what} needs two reviewers` : `High risk: this ${what}`) : risk.level === "notice" ? "Risk signals" : "No risk signal"}
        {accountId && <Link className="ml-3 font-normal underline" href={`/review/accounts/${accountId}`} data-testid="account-page-link">Account page →</Link>}
      </h2>
      {risk.signals.length > 0 && (
        <ul className="mt-2 space-y-1" data-testid="risk-signals">
          {risk.signals.map((s, i) => (
            <li key={i} data-testid="risk-signal" data-code={s.code} data-level={s.level} className="flex gap-2 [overflow-wrap:anywhere]">
              <span className={`shrink-0 self-start rounded px-1.5 text-xs font-semibold uppercase ${s.level === "high" ? "bg-red-200 text-red-900" : "bg-amber-200 text-amber-900"}`}>{s.level}</span>
              <span>{s.message}</span>
            </li>
          ))}
        </ul>
      )}
      {high && decides && (
        <p className="mt-2" data-testid="four-eyes">
          {firstApproval
            ? <>First approval by <strong>{firstApproval.mine ? "you" : firstApproval.by}</strong>, {formatUtc(firstApproval.at)}. {firstApproval.mine ? "Another reviewer must approve it." : "Your approval decides."}</>
            : <>Approving records the first of two approvals; a second reviewer&apos;s approval issues it.</>}
        </p>
      )}
    </section>
  );
}
