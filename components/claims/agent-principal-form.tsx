"use client";

import { useActionState, useId } from "react";
import { Alert, FieldError, buttonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import { principalAction, type PrincipalState } from "@/lib/records/principal-form-action";
import type { PrincipalCandidate } from "@/lib/agents/principal-candidates";

type Props = {
  id: string;
  environment: string;
  /** The linked record's id, if any. */
  linked: string | null;
  /** The records that qualify (the linked one is left out of the list: it is shown above). */
  candidates: PrincipalCandidate[];
  /** Where to make an eligible company record. */
  newHref: string;
};

const described = (id: string, help: string | undefined, error?: string) => ({
  "aria-invalid": Boolean(error),
  "aria-describedby": [help, error ? id : undefined].filter(Boolean).join(" ") || undefined,
});

/**
 * Link the agent record to a company record of this account (chosen from those that qualify,
 * or typed), or unlink it. A refusal comes back beside the field that was used, with what was
 * chosen and typed still there (the form remounts with them).
 */
export function AgentPrincipalForm({ id, environment, linked, candidates, newHref }: Props) {
  const [state, action, pending] = useActionState<PrincipalState, FormData>(principalAction, { attempt: 0 });
  const uid = useId();
  const v = state.values;
  const e = state.errors ?? {};
  const offered = candidates.filter((c) => c.verification_id !== linked);
  return (
    <div className="mt-4 max-w-xl" data-testid="principal-forms">
      {state.done && <Alert kind="success"><span data-testid="principal-done">{state.done}</span></Alert>}
      {e.form && <Alert kind="error"><span data-testid="principal-form-error">{e.form}</span></Alert>}
      <form key={state.attempt} action={action} className="mt-4 space-y-4 rounded border border-slate-200 p-4" data-testid="principal-link-form">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="environment" value={environment} />
        <input type="hidden" name="operation" value="link" />
        <div>
          <label className="block text-sm font-medium" htmlFor={`${uid}-select`}>{linked ? "Link another company record" : "Link a company record"}</label>
          <select id={`${uid}-select`} name="principal_record_id" className={inputClass} defaultValue={v?.principal_record_id ?? ""}
            {...described(`${uid}-select-error`, `${uid}-select-help`, e.principal_record_id)}>
            <option value="">{offered.length ? "Choose…" : linked ? "No other eligible record" : "No eligible record yet"}</option>
            {offered.map((c) => (
              <option key={c.verification_id} value={c.verification_id}>{c.subject} — {c.verification_id}{c.environment === "sandbox" ? " (sandbox)" : ""}</option>
            ))}
          </select>
          <FieldError id={`${uid}-select-error`} message={e.principal_record_id} />
          <p id={`${uid}-select-help`} className="mt-1 text-xs text-slate-600">
            Listed: your public, active company identity records checked against the LEI register
            {environment === "live" ? " (live ones: a live agent cannot rest on a sandbox record)" : ""}.{" "}
            {offered.length === 0 && <a className="underline" href={newHref}>{linked ? "Make another" : "Make one"}</a>}
          </p>
        </div>
        <div>
          <label className="block text-sm font-medium" htmlFor={`${uid}-typed`}>
            Or its id <span className="font-normal text-slate-500">(optional; used instead of the list)</span>
          </label>
          <input id={`${uid}-typed`} name="typed_record_id" className={`${inputClass} font-mono`} placeholder="PRS-…" autoComplete="off"
            maxLength={200} defaultValue={v?.typed_record_id ?? ""} {...described(`${uid}-typed-error`, undefined, e.typed_record_id)} />
          <FieldError id={`${uid}-typed-error`} message={e.typed_record_id} />
        </div>
        <button className={buttonClass} type="submit" disabled={pending}>{linked ? "Change link" : "Link"}</button>
      </form>
      {linked && (
        <form action={action} className="mt-4 flex flex-wrap items-center gap-3 rounded border border-slate-200 p-4" data-testid="principal-unlink-form">
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="environment" value={environment} />
          <input type="hidden" name="operation" value="unlink" />
          <button className={secondaryButtonClass} type="submit" disabled={pending}>Unlink</button>
          <span className="text-sm text-slate-600">The agent then rests on no company record: its standing shows “unlinked”. You can link one again.</span>
        </form>
      )}
    </div>
  );
}
