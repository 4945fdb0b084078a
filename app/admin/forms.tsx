"use client";

import { useActionState } from "react";
import { Alert, buttonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import { decidePlanRequestAction, rotateKeyAction, setLiveExchangeAction, setPlanAction, setRoleAction, type AdminState } from "./actions";

function Result({ state }: { state: AdminState }) {
  if (state.error) return <span role="alert" className="ml-2 text-red-800">{state.error}</span>;
  if (state.done) return <span role="status" className="ml-2 text-emerald-800">{state.done}</span>;
  return null;
}

/**
 * Plan and role of one account. Each select is keyed by the saved value: React applies a
 * select's defaultValue only when it mounts, and resets the form after each action — so
 * without the key the select went back to the old value after "Plan set to …" while the
 * page (revalidated) already showed the new one.
 */
export function AccountControls({ accountId, plan, role, liveExchange }: { accountId: string; plan: string; role: string; liveExchange: boolean }) {
  const [planState, planAction, planPending] = useActionState<AdminState, FormData>(setPlanAction, {});
  const [exState, exAction, exPending] = useActionState<AdminState, FormData>(setLiveExchangeAction, {});
  const [roleState, roleAction, rolePending] = useActionState<AdminState, FormData>(setRoleAction, {});
  return (
    <div className="flex flex-wrap items-center gap-3">
      <form action={planAction} className="flex items-center gap-1" data-testid="plan-form">
        <input type="hidden" name="account_id" value={accountId} />
        <select key={plan} name="plan" defaultValue={plan} className={`${inputClass} mt-0 w-auto py-1`} aria-label="Plan">
          {["none", "starter", "growth"].map((p) => <option key={p} value={p}>{p}</option>)}
        </select>
        <button className={`${secondaryButtonClass} shrink-0 whitespace-nowrap`} type="submit" disabled={planPending}>Set plan</button>
        <Result state={planState} />
      </form>
      <form action={roleAction} className="flex items-center gap-1" data-testid="role-form">
        <input type="hidden" name="account_id" value={accountId} />
        <select key={role} name="role" defaultValue={role} className={`${inputClass} mt-0 w-auto py-1`} aria-label="Role">
          {["customer", "reviewer", "admin"].map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
        <button className={`${secondaryButtonClass} shrink-0 whitespace-nowrap`} type="submit" disabled={rolePending}>Set role</button>
        <Result state={roleState} />
      </form>
      <form action={exAction} className="flex items-center gap-1" data-testid="live-exchange-form">
        <input type="hidden" name="account_id" value={accountId} />
        <input type="hidden" name="enable" value={liveExchange ? "no" : "yes"} />
        <span className="text-xs text-slate-600">Live exchange: {liveExchange ? "on" : "off"}</span>
        <button className={`${secondaryButtonClass} shrink-0 whitespace-nowrap`} type="submit" disabled={exPending}>{liveExchange ? "Disable" : "Enable"}</button>
        <Result state={exState} />
      </form>
    </div>
  );
}

export function RotateKeyForm() {
  const [state, action, pending] = useActionState<AdminState, FormData>(rotateKeyAction, {});
  return (
    <form action={action} className="mt-3" data-testid="rotate-form">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="confirm" value="yes" required />
        New records will be signed with a new key; earlier keys stay published.
      </label>
      <button className={`${buttonClass} mt-2`} type="submit" disabled={pending}>Rotate signing key</button>
      {state.error && <Alert kind="error">{state.error}</Alert>}
      {state.done && <Alert kind="success">{state.done}</Alert>}
    </form>
  );
}

/** A pending plan request: approve (sets the plan) or decline with the reason the customer is mailed. */
export function PlanRequestControls({ requestId, email }: { requestId: string; email: string }) {
  const [state, action, pending] = useActionState<AdminState, FormData>(decidePlanRequestAction, {});
  return (
    <div className="space-y-2" data-testid="plan-request-controls">
      <form action={action}>
        <input type="hidden" name="request_id" value={requestId} />
        <input type="hidden" name="decision" value="approve" />
        <button className={`${buttonClass} whitespace-nowrap`} type="submit" disabled={pending} aria-label={`Approve the plan request of ${email}`}>Approve</button>
      </form>
      <form action={action} className="flex flex-wrap items-center gap-1">
        <input type="hidden" name="request_id" value={requestId} />
        <input type="hidden" name="decision" value="decline" />
        <input name="reason" className={`${inputClass} mt-0 w-56 py-1`} maxLength={1000} required placeholder="Reason (shown to the customer)"
          aria-label={`Reason for declining the plan request of ${email}`} />
        <button className={`${secondaryButtonClass} whitespace-nowrap`} type="submit" disabled={pending}>Decline</button>
      </form>
      <Result state={state} />
    </div>
  );
}
