"use client";

import { useActionState, useId } from "react";
import { Alert, FieldError, dangerButtonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import { accountAction, type AccountActionState } from "./actions";

/**
 * Take a whole account down, or lift it (issue 39, item 3). The reason is public: each live
 * record suspended with the account shows "Suspended by Proof Records: ‹reason›".
 */
export function AccountActionForm({ accountId, suspended }: { accountId: string; suspended: boolean }) {
  const [state, action, pending] = useActionState<AccountActionState, FormData>(accountAction, {});
  const uid = useId();
  const e = state.errors ?? {};
  const d = state.done;
  return (
    <form action={action} className="mt-3 max-w-2xl space-y-2" data-testid="account-action-form">
      {d && (
        <Alert kind="success">
          <span data-testid="account-action-done" data-status={d.status} data-records={d.records.length}>
            Account {d.status === "suspended" ? "suspended" : "reinstated"}: {d.records.length} record{d.records.length === 1 ? "" : "s"} {d.status === "suspended" ? "suspended" : "reinstated"},{" "}
            {d.webhooks} webhook{d.webhooks === 1 ? "" : "s"} {d.status === "suspended" ? "disabled" : "enabled"}. The owner was told.
          </span>
          {d.left_suspended.length > 0 && (
            <ul className="mt-1 list-disc pl-5" data-testid="left-suspended">
              {d.left_suspended.map((l) => <li key={l.id}><code>{l.id}</code> stays suspended: {l.reason}</li>)}
            </ul>
          )}
        </Alert>
      )}
      <input type="hidden" name="account_id" value={accountId} />
      {e.form && <Alert kind="error">{e.form}</Alert>}
      <label className="block text-sm">
        {suspended ? "Reason for reinstating (shown in each reinstated record’s history and told to the owner)" : "Public reason (shown on every suspended record’s certificate as “Suspended by Proof Records: ‹reason›”)"}
        <textarea name="reason" className={inputClass} rows={2} minLength={3} maxLength={500} required
          defaultValue={state.values?.reason ?? ""} aria-invalid={Boolean(e.reason)} aria-describedby={e.reason ? `${uid}-reason` : undefined}
          data-testid="account-reason" />
      </label>
      <FieldError id={`${uid}-reason`} message={e.reason} />
      {!suspended && (
        <label className="flex gap-2 text-sm">
          <input type="checkbox" name="confirm_suspend" data-testid="confirm-suspend" />
          <span>Take the whole account down: suspend its live records, refuse its keys and sign-in, disable its webhooks, freeze its plan.</span>
        </label>
      )}
      <FieldError id={`${uid}-operation`} message={e.operation} />
      <button type="submit" name="operation" value={suspended ? "reinstate" : "suspend"} disabled={pending}
        className={suspended ? secondaryButtonClass : dangerButtonClass} data-testid={suspended ? "account-reinstate" : "account-suspend"}>
        {suspended ? "Reinstate account" : "Suspend account"}
      </button>
    </form>
  );
}
