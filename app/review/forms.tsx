"use client";

import { useActionState, useId } from "react";
import { Alert, FieldError, buttonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import type { ChecklistItem } from "@/lib/reviews/checklists";
import { decideAction, rerunAction, type DecisionState, type ReviewState } from "./actions";
import { RejectForm } from "./reject-form";

function Outcome({ state }: { state: ReviewState }) {
  return (
    <>
      {state.error && <Alert kind="error">{state.error}</Alert>}
      {state.conflict && <Alert kind="error" id="review-conflict"><strong>Conflict:</strong> {state.conflict}</Alert>}
    </>
  );
}

const described = (id: string, error?: string) => ({ "aria-invalid": Boolean(error), "aria-describedby": error ? id : undefined });

/**
 * Approve (every checklist item ticked) or reject (with a reason the customer sees). One
 * action serves both forms; a refusal goes back into the form that was sent, with what was
 * ticked and typed, and its message beside the field it is about.
 */
export function DecisionForms({ id, checklist, refusal, offerWithoutSnapshot }: {
  id: string; checklist: readonly ChecklistItem[];
  /** Why this submission cannot be approved now (its type's precondition, e.g. evidence too old): no approval is offered. */
  refusal?: string | null;
  /** The type asks a source at approval (a snapshot): offer to approve without it when the source cannot answer. */
  offerWithoutSnapshot?: boolean;
}) {
  const [state, action, pending] = useActionState<DecisionState, FormData>(decideAction, {});
  const uid = useId();
  const decided = Boolean(state.conflict);
  const approve = state.values?.decision === "approve" ? state.values : undefined;
  const reject = state.values?.decision === "reject" ? state.values : undefined;
  const e = state.errors ?? {};
  const approveErrors = approve || !state.values ? e : {};
  const rejectErrors = reject ? e : {};
  return (
    <div>
      {state.conflict && <Alert kind="error" id="review-conflict"><strong>Conflict:</strong> {state.conflict}</Alert>}
      <div className="mt-4 grid items-start gap-6 md:grid-cols-2">
        <form action={action} className="rounded border border-emerald-200 p-4" data-testid="approve-form">
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="decision" value="approve" />
          <h3 className="font-medium">Approve</h3>
          {refusal && <Alert kind="error" id="approval-refused"><strong>Approval is not possible now:</strong> {refusal}</Alert>}
          <fieldset className="mt-2 space-y-2 text-sm" aria-describedby={approveErrors.checklist ? `${uid}-checklist` : undefined}>
            <legend className="text-slate-600">Checklist — tick each item you confirmed yourself:</legend>
            {checklist.map((item) => (
              <label key={item.key} className="flex gap-2">
                <input type="checkbox" name="checklist" value={item.key} data-testid={`check-${item.key}`}
                  defaultChecked={approve?.checklist.includes(item.key) ?? false} />
                <span>{item.label}</span>
              </label>
            ))}
            <FieldError id={`${uid}-checklist`} message={approveErrors.checklist} />
          </fieldset>
          <label className="mt-3 block text-sm">Notes (internal, optional)
            <textarea name="notes" className={inputClass} rows={2} maxLength={2000} defaultValue={approve?.notes ?? ""}
              {...described(`${uid}-approve-notes`, approveErrors.notes)} />
          </label>
          <FieldError id={`${uid}-approve-notes`} message={approveErrors.notes} />
          {offerWithoutSnapshot && (
            <>
              <label className="mt-3 flex gap-2 text-sm">
                <input type="checkbox" name="without_snapshot" data-testid="without-snapshot" defaultChecked={approve?.withoutSnapshot ?? false} />
                <span>If the source of the public snapshot cannot be reached, approve without a snapshot (the certificate says so).</span>
              </label>
            </>
          )}
          {approveErrors.form && <Alert kind="error">{approveErrors.form}</Alert>}
          <button className={`${buttonClass} mt-3`} type="submit" disabled={pending || decided || Boolean(refusal)}>Approve and issue</button>
        </form>
        <RejectForm action={action} id={id} shownTo="customer" values={reject} errors={rejectErrors} disabled={pending || decided} />
      </div>
    </div>
  );
}

export function RerunForm({ id }: { id: string }) {
  const [state, action, pending] = useActionState<ReviewState, FormData>(rerunAction, {});
  return (
    <form action={action} data-testid="rerun-form">
      <input type="hidden" name="id" value={id} />
      <button className={secondaryButtonClass} type="submit" disabled={pending}>Re-run automatic check</button>
      <Outcome state={state} />
    </form>
  );
}
