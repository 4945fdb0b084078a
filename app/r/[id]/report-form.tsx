"use client";

import { useActionState } from "react";
import { reportAction, type ReportState } from "./actions";

/** "Report a problem" on a certificate: kept short, works for anyone, keeps what was typed on a refusal. */
export function ReportForm({ recordId }: { recordId: string }) {
  const [state, action, pending] = useActionState<ReportState, FormData>(reportAction, {});
  return (
    <details className="mt-4 rounded-lg bg-white p-5 text-sm shadow-sm ring-1 ring-slate-200" id="report" open={Boolean(state.error || state.sent)}>
      <summary className="cursor-pointer font-semibold">Report a problem with this record</summary>
      {state.sent ? (
        <p role="status" className="mt-3 text-emerald-800" data-testid="report-sent">Thank you. A Proof Records reviewer will look at your report.</p>
      ) : (
        <form action={action} className="mt-3 space-y-3">
          <p className="text-slate-600">Is this record wrong, or being used to deceive? Tell a reviewer. Your report is not published.</p>
          <input type="hidden" name="record_id" value={recordId} />
          <label className="block">
            <span className="font-medium">What is wrong?</span>
            <textarea
              name="message" required minLength={10} maxLength={2000} rows={4} defaultValue={state.values?.message}
              aria-invalid={state.field === "message" || undefined} aria-describedby={state.field === "message" ? "report-error" : undefined}
              className="mt-1 block w-full rounded-md border border-slate-300 p-2"
            />
          </label>
          <label className="block">
            <span className="font-medium">Your email (optional, if you want an answer)</span>
            <input
              name="contact" type="email" maxLength={254} defaultValue={state.values?.contact}
              aria-invalid={state.field === "contact" || undefined} aria-describedby={state.field === "contact" ? "report-error" : undefined}
              className="mt-1 block w-full rounded-md border border-slate-300 p-2"
            />
          </label>
          {state.error && <p id="report-error" role="alert" className="text-red-700">{state.error}</p>}
          <button type="submit" disabled={pending} className="rounded-md bg-slate-900 px-4 py-2 font-medium text-white disabled:opacity-60">
            {pending ? "Sending…" : "Send report"}
          </button>
        </form>
      )}
    </details>
  );
}
