"use client";

import { useActionState, useId } from "react";
import { Alert, FieldError, buttonClass, inputClass } from "@/components/portal";
import { lifecycleAction, type LifecycleState } from "./actions";
import { IRREVERSIBLE } from "./lifecycle-ops";

const LABELS: Record<string, string> = {
  suspend: "Suspend", reinstate: "Reinstate", revoke: "Revoke", expire: "Expire", supersede: "Supersede",
};

const described = (id: string, error?: string) => ({ "aria-invalid": Boolean(error), "aria-describedby": error ? id : undefined });

/**
 * One form per operation the transition table allows from the record's current status. A
 * refusal goes back into the form that was sent: its reason, superseding id and tick stay,
 * and each message sits under its field.
 */
export function LifecycleForms({ id, environment, operations }: { id: string; environment: string; operations: string[] }) {
  const [state, action, pending] = useActionState<LifecycleState, FormData>(lifecycleAction, {});
  const uid = useId();
  return (
    <div>
      {state.done && <Alert kind="success">{state.done}</Alert>}
      {operations.length === 0 && <p className="mt-2 text-sm text-slate-600" data-testid="no-actions">No lifecycle change is possible from this status.</p>}
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {operations.map((op) => {
          const v = state.values?.operation === op ? state.values : undefined;
          const e = v ? (state.errors ?? {}) : {};
          const fid = (f: string) => `${uid}-${op}-${f}`;
          return (
            <form key={op} action={action} className="rounded border border-slate-200 p-4" data-testid={`lifecycle-${op}`}>
              <input type="hidden" name="id" value={id} />
              <input type="hidden" name="environment" value={environment} />
              <input type="hidden" name="operation" value={op} />
              <label className="block text-sm">
                Reason for {LABELS[op]?.toLowerCase() ?? op}
                <textarea name="reason" className={inputClass} rows={2} required minLength={3} maxLength={500}
                  defaultValue={v?.reason ?? ""} {...described(fid("reason"), e.reason)} />
              </label>
              <FieldError id={fid("reason")} message={e.reason} />
              {op === "supersede" && (
                <>
                  <label className="mt-2 block text-sm">
                    Superseded by (record id)
                    <input name="superseded_by" className={`${inputClass} font-mono`} placeholder="PRS-…" required
                      defaultValue={v?.superseded_by ?? ""} {...described(fid("superseded-by"), e.superseded_by)} />
                  </label>
                  <FieldError id={fid("superseded-by")} message={e.superseded_by} />
                </>
              )}
              {IRREVERSIBLE.includes(op) && (
                <>
                  <label className="mt-3 flex items-start gap-2 text-sm text-red-900">
                    <input type="checkbox" name="confirm" value="irreversible" required className="mt-0.5"
                      defaultChecked={v?.confirm ?? false} {...described(fid("confirm"), e.confirm)} />
                    <span>I understand this cannot be undone: the record stays {op}d for good.</span>
                  </label>
                  <FieldError id={fid("confirm")} message={e.confirm} />
                </>
              )}
              {e.form && <Alert kind="error">{e.form}</Alert>}
              <button className={`${buttonClass} mt-3`} type="submit" disabled={pending}>{LABELS[op] ?? op}</button>
            </form>
          );
        })}
      </div>
    </div>
  );
}
