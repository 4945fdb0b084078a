import { useId } from "react";
import { Alert, FieldError, buttonClass, inputClass } from "@/components/portal";

const described = (id: string, error?: string) => ({ "aria-invalid": Boolean(error), "aria-describedby": error ? id : undefined });

/**
 * The reject half of a reviewer's decision (a submission's, an organisation application's):
 * a reason `shownTo` sees and internal notes, posted to `action` with `decision=reject`.
 */
export function RejectForm({ action, id, shownTo, values, errors, disabled }: {
  action: (form: FormData) => void; id: string; shownTo: string; values?: { reason?: string; notes?: string };
  errors: { reason?: string; notes?: string; form?: string }; disabled: boolean;
}) {
  const uid = useId();
  return (
    <form action={action} className="rounded border border-red-200 p-4" data-testid="reject-form">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="decision" value="reject" />
      <h3 className="font-medium">Reject</h3>
      <label className="mt-2 block text-sm">Reason (shown to the {shownTo})
        <textarea name="reason" className={inputClass} rows={3} required minLength={3} maxLength={500} defaultValue={values?.reason ?? ""}
          {...described(`${uid}-reason`, errors.reason)} />
      </label>
      <FieldError id={`${uid}-reason`} message={errors.reason} />
      <label className="mt-3 block text-sm">Notes (internal, optional)
        <textarea name="notes" className={inputClass} rows={2} maxLength={2000} defaultValue={values?.notes ?? ""}
          {...described(`${uid}-reject-notes`, errors.notes)} />
      </label>
      <FieldError id={`${uid}-reject-notes`} message={errors.notes} />
      {errors.form && <Alert kind="error">{errors.form}</Alert>}
      <button className={`${buttonClass} mt-3`} type="submit" disabled={disabled}>Reject</button>
    </form>
  );
}
