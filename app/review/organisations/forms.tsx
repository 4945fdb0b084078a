"use client";

import { useActionState, useId } from "react";
import { Alert, FieldError, buttonClass, inputClass } from "@/components/portal";
import type { VerificationChecklistItem } from "@/lib/organisations/verification-checklist";
import { decideOrganisationAction, type OrganisationDecisionState } from "./actions";
import { RejectForm } from "../reject-form";

const described = (id: string, error?: string) => ({ "aria-invalid": Boolean(error), "aria-describedby": error ? id : undefined });

/**
 * Approve (every checklist item ticked, the entity's domains chosen, and — without an LEI —
 * the legal name typed from the documents) or reject with a reason the applicant sees. A
 * refusal (e.g. the LEI is another account's verified organisation) comes back into the form.
 */
export function OrganisationDecisionForms({ id, checklist, domains, needsLegalName, registerName }: {
  id: string; checklist: readonly VerificationChecklistItem[]; domains: readonly string[]; needsLegalName: boolean; registerName: string | null;
}) {
  const [state, action, pending] = useActionState<OrganisationDecisionState, FormData>(decideOrganisationAction, {});
  const uid = useId();
  const closed = Boolean(state.conflict || state.done);
  const approve = state.values?.decision === "approve" ? state.values : undefined;
  const reject = state.values?.decision === "reject" ? state.values : undefined;
  const e = state.errors ?? {};
  const approveErrors = approve ? e : {};
  const rejectErrors = reject ? e : {};
  return (
    <div>
      {state.conflict && <Alert kind="error" id="review-conflict"><strong>Conflict:</strong> {state.conflict}</Alert>}
      {state.done && <Alert kind="success" id="decision-done"><span data-testid="decision-done">{state.done === "awaiting_second_approval" ? "Your approval is recorded. High risk: a second reviewer must approve it too." : `Recorded: the application is ${state.done}.`}</span></Alert>}
      <div className="mt-4 grid items-start gap-6 md:grid-cols-2">
        <form action={action} className="rounded border border-emerald-200 p-4" data-testid="approve-form">
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="decision" value="approve" />
          <h3 className="font-medium">Approve</h3>
          <fieldset className="mt-2 space-y-2 text-sm" aria-describedby={approveErrors.checklist ? `${uid}-checklist` : undefined}>
            <legend className="text-slate-600">Checklist — tick each item you confirmed yourself:</legend>
            {checklist.map((item) => (
              <label key={item.key} className="flex gap-2">
                <input type="checkbox" name="checklist" value={item.key} data-testid={`check-${item.key}`} defaultChecked={approve?.checklist.includes(item.key) ?? false} />
                <span>{item.label}</span>
              </label>
            ))}
            <FieldError id={`${uid}-checklist`} message={approveErrors.checklist} />
          </fieldset>
          <fieldset className="mt-4 space-y-2 text-sm" data-testid="domain-choices" aria-describedby={approveErrors.domains ? `${uid}-domains` : undefined}>
            <legend className="text-slate-600">The account&apos;s proved domains that belong to the entity:</legend>
            {domains.length === 0 && <p className="text-slate-500">The account proves no domain (no active live domain_ownership record).</p>}
            {domains.map((d) => (
              <label key={d} className="flex gap-2 [overflow-wrap:anywhere]">
                <input type="checkbox" name="domains" value={d} data-testid={`domain-${d}`} defaultChecked={approve?.domains.includes(d) ?? false} />
                <span>{d}</span>
              </label>
            ))}
            <FieldError id={`${uid}-domains`} message={approveErrors.domains} />
          </fieldset>
          {needsLegalName ? (
            <>
              <label className="mt-4 block text-sm">Legal or registered trading name (from the documents)
                <input name="legal_name" className={inputClass} maxLength={200} required defaultValue={approve?.legalName ?? ""} {...described(`${uid}-legal-name`, approveErrors.legal_name)} />
              </label>
              <FieldError id={`${uid}-legal-name`} message={approveErrors.legal_name} />
              <label className="mt-3 block text-sm">Jurisdiction (optional, e.g. GB or US-DE)
                <input name="jurisdiction" className={inputClass} maxLength={10} defaultValue={approve?.jurisdiction ?? ""} />
              </label>
            </>
          ) : (
            <p className="mt-4 text-sm text-slate-600">The account&apos;s name becomes the register&apos;s legal name{registerName ? <>: <strong>{registerName}</strong></> : ""} (asked again at approval).</p>
          )}
          <label className="mt-3 block text-sm">Notes (internal, optional)
            <textarea name="notes" className={inputClass} rows={2} maxLength={2000} defaultValue={approve?.notes ?? ""} />
          </label>
          {approveErrors.form && <Alert kind="error" id="approve-error">{approveErrors.form}</Alert>}
          <button className={`${buttonClass} mt-3`} type="submit" disabled={pending || closed}>Approve organisation</button>
        </form>
        <RejectForm action={action} id={id} shownTo="applicant" values={reject} errors={rejectErrors} disabled={pending || closed} />
      </div>
    </div>
  );
}
