"use client";

import { useActionState, useId } from "react";
import { Alert, FieldError, dangerButtonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import type { StaffOperation } from "@/lib/staff/staff-action";
import { staffRecordAction, type StaffActionState } from "./staff-actions";

const LABEL: Record<StaffOperation, string> = { suspend: "Suspend", reinstate: "Reinstate", revoke: "Revoke" };

/**
 * A staff action on an issued record (CONTRACT "What still stands"): suspend, reinstate or
 * revoke with a reason shown publicly on the certificate ("Suspended by Proof Records: …").
 * From a problem report (`reportId`) the report is closed with the action.
 */
export function StaffActionForm({ id, operations, reportId }: { id: string; operations: readonly StaffOperation[]; reportId?: string }) {
  const [state, action, pending] = useActionState<StaffActionState, FormData>(staffRecordAction, {});
  const uid = useId();
  const e = state.errors ?? {};
  return (
    <form action={action} className="mt-3 space-y-2" data-testid="staff-action-form">
      {state.done && <Alert kind="success" id={`${uid}-done`}>Record {state.done}{reportId ? "; the report is closed" : ""}. The certificate shows it now.</Alert>}
      <input type="hidden" name="id" value={id} />
      {reportId && <input type="hidden" name="report_id" value={reportId} />}
      {e.form && <Alert kind="error">{e.form}</Alert>}
      <label className="block text-sm">
        Public reason (shown on the certificate as “… by Proof Records: ‹reason›”)
        <textarea name="reason" className={inputClass} rows={2} minLength={3} maxLength={500} required
          defaultValue={state.values?.reason ?? ""} aria-invalid={Boolean(e.reason)} aria-describedby={e.reason ? `${uid}-reason` : undefined}
          data-testid="staff-reason" />
      </label>
      <FieldError id={`${uid}-reason`} message={e.reason} />
      {operations.includes("revoke") && (
        <label className="flex gap-2 text-sm">
          <input type="checkbox" name="confirm_revoke" data-testid="confirm-revoke" />
          <span>Revoking is final: the record can never stand again.</span>
        </label>
      )}
      <FieldError id={`${uid}-operation`} message={e.operation} />
      <div className="flex flex-wrap gap-2">
        {operations.map((op) => (
          <button key={op} type="submit" name="operation" value={op} disabled={pending}
            className={op === "revoke" ? dangerButtonClass : secondaryButtonClass} data-testid={`staff-${op}`}>
            {LABEL[op]}{reportId ? " and close report" : ""}
          </button>
        ))}
      </div>
    </form>
  );
}
