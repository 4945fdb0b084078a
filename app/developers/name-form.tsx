"use client";

import { useActionState } from "react";
import { buttonClass, inputClass } from "@/components/portal";
import { setNameAction, type NameState } from "./actions";

/** Who the account's certificates say made the statement. */
export function NameForm({ current }: { current: string | null }) {
  const [state, action, pending] = useActionState<NameState, FormData>(setNameAction, { value: current ?? "" });
  return (
    <form action={action} className="mt-3 flex max-w-xl flex-wrap items-end gap-3" data-testid="name-form">
      <label className="min-w-64 flex-1 text-sm">
        Organisation name
        <input name="name" maxLength={200} defaultValue={state.value} key={state.value} className={inputClass}
          aria-invalid={Boolean(state.error) || undefined} aria-describedby={state.error ? "name-error" : undefined} placeholder="e.g. Acme Trading Ltd" />
      </label>
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Saving…" : "Save name"}</button>
      {state.error && <p id="name-error" role="alert" className="w-full text-sm text-red-700">{state.error}</p>}
      {state.saved !== undefined && !state.error && (
        <p className="w-full text-sm text-emerald-800" data-testid="name-saved">{state.saved ? `Certificates now name “${state.saved}”.` : "Name removed: certificates say “an unnamed account”."}</p>
      )}
    </form>
  );
}
