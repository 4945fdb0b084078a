"use client";

import Link from "next/link";
import { useActionState } from "react";
import { buttonClass, inputClass } from "@/components/portal";
import { setNameAction, type NameState } from "./actions";

/**
 * Who the account's certificates say made the statement. A verified organisation's name is
 * its legal name, locked: shown, not editable, with the way to change it (a new verification).
 */
export function NameForm({ current, locked }: { current: string | null; locked?: { legalName: string; status: "verified" | "lapsed" } | null }) {
  const [state, action, pending] = useActionState<NameState, FormData>(setNameAction, { value: current ?? "" });
  if (locked) {
    return (
      <div className="mt-3 max-w-xl rounded border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm" data-testid="name-locked">
        <p>Organisation name: <strong>{locked.legalName}</strong> — {locked.status === "verified" ? "verified organisation" : "verified organisation, lapsed"}.</p>
        <p className="mt-1 text-slate-700">The name is the entity&apos;s legal name and is locked; it changes only with a new <Link className="underline" href="/organisation">organisation verification</Link>.</p>
      </div>
    );
  }
  return (
    <form action={action} className="mt-3 flex max-w-xl flex-wrap items-end gap-3" data-testid="name-form">
      <label className="min-w-64 flex-1 text-sm">
        Organisation name
        <input name="name" maxLength={200} defaultValue={state.value} key={state.value} className={inputClass}
          aria-invalid={Boolean(state.error) || undefined} aria-describedby={state.error ? "name-error" : undefined} placeholder="e.g. Acme Trading Ltd" />
      </label>
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Saving…" : "Save name"}</button>
      {state.error && <p id="name-error" role="alert" className="w-full text-sm text-red-700">{state.error}</p>}
      <p className="w-full text-xs text-slate-500">This name is your own word until a reviewer verifies the organisation: <Link className="underline" href="/organisation">verify your organisation</Link>.</p>
      {state.saved !== undefined && !state.error && (
        <p className="w-full text-sm text-emerald-800" data-testid="name-saved">{state.saved ? `Certificates now name “${state.saved}”.` : "Name removed: certificates say “an unnamed account”."}</p>
      )}
    </form>
  );
}
