import type { Metadata } from "next";
import Link from "next/link";
import { PortalHeader, secondaryButtonClass } from "@/components/portal";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { listReports } from "@/lib/reports/report-problem";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../../developers/forms";
import { StaffActionForm } from "../staff-forms";
import { closeReportAction } from "./actions";

export const metadata: Metadata = { title: "Reported problems", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * Problems anyone reported from a certificate, newest first: the reviewers decide what to do —
 * suspend or revoke the record with a public reason (closing the report with it), contact, or close.
 */
export default async function ReportsPage() {
  const account = await requireRole(["reviewer", "admin"], "/review/reports");
  const reports = await listReports(await getDb());
  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <main className="mx-auto max-w-5xl space-y-6 px-6 py-10">
        <p className="text-sm"><Link className="underline" href="/review">← Review queue</Link></p>
        <h1 className="text-2xl font-semibold">Reported problems <span className="text-slate-500" data-testid="reports-total">({reports.length})</span></h1>
        {reports.length === 0 && <p className="text-slate-600" data-testid="reports-empty">No open reports.</p>}
        <ul className="space-y-4" data-testid="reports">
          {reports.map((r) => (
            <li key={r.id} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="report" data-record={r.recordId}>
              <p className="text-sm text-slate-500">
                {formatUtc(r.createdAt)} · <a className="font-mono underline" href={`/r/${r.recordId}`}>{r.recordId}</a> · {r.claimType} · {r.subject} · record <span data-testid="report-record-status">{r.recordStatus}</span>
                {" · "}<Link className="underline" href={`/review/${r.recordId}`} data-testid="open-record">open in the console</Link>
              </p>
              <p className="mt-2 whitespace-pre-wrap break-words">{r.message}</p>
              <p className="mt-2 text-xs text-slate-500">
                {r.contact ? <>Contact: <a className="underline" href={`mailto:${r.contact}`}>{r.contact}</a></> : "No contact given."} · reporter {r.reporterHash.slice(0, 8)}
              </p>
              {(r.recordStatus === "active" || r.recordStatus === "suspended") && (
                <details className="mt-3" data-testid="report-staff-action">
                  <summary className="cursor-pointer text-sm font-medium">Act on the record…</summary>
                  <StaffActionForm id={r.recordId} reportId={r.id} operations={r.recordStatus === "active" ? ["suspend", "revoke"] : ["revoke"]} />
                </details>
              )}
              <form action={closeReportAction} className="mt-3">
                <input type="hidden" name="id" value={r.id} />
                <button className={secondaryButtonClass} type="submit">Mark handled</button>
              </form>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
