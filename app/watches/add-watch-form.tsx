"use client";

import { useActionState } from "react";
import { buttonClass, inputClass } from "@/components/portal";
import { addWatchAction, type WatchFormState } from "./actions";

const KINDS = [
  { value: "domain", label: "Domain", hint: "example.com — look-alikes in other scripts are caught too" },
  { value: "name", label: "Name", hint: "Acme Widgets Ltd — look-alikes are caught too" },
  { value: "iban", label: "IBAN", hint: "GB33 BUKB 2020 1555 5555 55" },
  { value: "wallet", label: "Wallet address", hint: "0x… , bc1… or a solana address" },
  { value: "lei", label: "LEI", hint: "20 characters" },
] as const;

/** Add a watch: what kind, and the value (normalised by the server, which answers the watch it already has for the same value). */
export function AddWatchForm() {
  const [state, action, pending] = useActionState<WatchFormState, FormData>(addWatchAction, {});
  return (
    <form action={action} className="mt-4 flex max-w-3xl flex-wrap items-end gap-3" data-testid="add-watch-form">
      <label className="text-sm">
        Watch a
        <select name="kind" defaultValue={state.values?.kind || "domain"} key={`k-${state.values?.kind}`} className={inputClass} data-testid="watch-kind">
          {KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
        </select>
      </label>
      <label className="min-w-64 flex-1 text-sm">
        Value
        <input name="value" maxLength={300} defaultValue={state.values?.value ?? ""} key={`v-${state.values?.value}-${state.added?.value}`}
          className={inputClass} placeholder="e.g. example.com" data-testid="watch-value"
          aria-invalid={Boolean(state.error) || undefined} aria-describedby={state.error ? "watch-error" : "watch-hint"} />
      </label>
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Adding…" : "Add watch"}</button>
      <p id="watch-hint" className="w-full text-xs text-slate-500">
        {KINDS.map((k) => `${k.label}: ${k.hint}`).join(" · ")}
      </p>
      {state.error && <p id="watch-error" role="alert" className="w-full text-sm text-red-700">{state.error}</p>}
      {state.added && !state.error && (
        <p className="w-full text-sm text-emerald-800" role="status" data-testid="watch-added">
          {state.added.existed ? `You already watch ${state.added.value}.` : `Watching ${state.added.value}.`}
        </p>
      )}
    </form>
  );
}
