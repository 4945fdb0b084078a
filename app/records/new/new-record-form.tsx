"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { Alert, buttonClass, inputClass } from "@/components/portal";
import type { ClaimFormSpec, FormField, FormSection } from "@/lib/claims/form-spec";
import { WalletProviders } from "@/components/wallet-connect";
import { newRecordAction, type NewRecordState } from "./actions";
import { WalletStep } from "./wallet-step";

type Props = {
  specs: ClaimFormSpec[];
  initialChoice?: string;
  idempotencyKey: string;
  liveBlockedReason: string | null;
  /** The server's clock, "YYYY-MM-DDTHH:MM" UTC: a required moment (when the source was checked) starts at now. */
  nowUtc: string;
  /** The networks a wallet challenge can name (a kind whose wallet signs one: `spec.walletChallenge`). */
  walletNetworks: readonly string[];
};

const GROUPS: { group: FormField["group"]; title: string }[] = [
  { group: "claim", title: "The claim" },
  { group: "evidence", title: "Evidence" },
  { group: "record", title: "The record" },
];

/**
 * The form is generated from the claim types' specs (lib/claims/form-spec.ts): choosing a
 * kind shows its fields. A refusal comes back with what was posted and the error beside the
 * field it names; the form remounts (`key`) with those values, so nothing typed is lost.
 */
export function NewRecordForm(props: Props) {
  // Outside the form, which remounts on every answer: the wallet stays connected.
  return (
    <WalletProviders>
      <RecordForm {...props} />
    </WalletProviders>
  );
}

function RecordForm({ specs, initialChoice, idempotencyKey, liveBlockedReason, nowUtc, walletNetworks }: Props) {
  const [state, action, pending] = useActionState<NewRecordState, FormData>(newRecordAction, { attempt: 0, idempotencyKey, choice: initialChoice });
  const [choice, setChoice] = useState(initialChoice);
  const spec = specs.find((s) => s.key === choice && !s.href);
  // Errors and values belong to the kind they were posted for.
  const posted = state.choice === choice;
  const errors = posted ? (state.errors ?? {}) : {};
  const values = posted ? (state.values ?? {}) : {};
  const firstError = [...(spec?.fields.map((f) => f.name) ?? []), "environment"].find((n) => errors[n]);
  const environment = state.environment === "live" && !liveBlockedReason ? "live" : "sandbox";
  // The fields a signed wallet challenge fills are given by the wallet step, shown where the first of them is.
  const walletAt = spec?.fields.find((f) => f.kind === "wallet")?.name;

  return (
    <form key={state.attempt} action={action} noValidate className="max-w-2xl space-y-8" data-testid="new-record-form">
      <input type="hidden" name="idempotency_key" value={state.idempotencyKey} />
      {state.error && <Alert kind="error"><span data-testid="form-error">{state.error}</span></Alert>}
      {firstError && !state.error && <Alert kind="error">The record was not created: see the marked field below.</Alert>}

      <fieldset>
        <legend className="text-lg font-semibold">What kind of record</legend>
        <div className="mt-3 space-y-2">
          {specs.filter((s) => !s.href).map((s) => (
            <label key={s.key} className="flex cursor-pointer items-start gap-3 rounded border border-slate-200 bg-white p-3 has-[:checked]:border-slate-900 has-[:checked]:ring-1 has-[:checked]:ring-slate-900">
              <input type="radio" name="choice" value={s.key} defaultChecked={s.key === choice} onChange={() => setChoice(s.key)} className="mt-1 shrink-0" />
              <span className="min-w-0">
                <span className="block text-sm font-medium">{s.label}</span>
                <span className="mt-0.5 block text-sm text-slate-600">{s.summary}</span>
              </span>
            </label>
          ))}
        </div>
        {specs.some((s) => s.href) && (
          <div className="mt-4 text-sm text-slate-700" data-testid="elsewhere">
            <p>Proved with a challenge, on the Proofs page:</p>
            <ul className="mt-1 space-y-1">
              {specs.filter((s) => s.href).map((s) => (
                <li key={s.key}>
                  <Link className="font-medium underline" href={s.href!} data-key={s.key}>{s.label} →</Link>
                  <span className="text-slate-600"> {s.summary}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </fieldset>

      {spec && (
        <>
          {GROUPS.map(({ group, title }) => {
            const fields = spec.fields.filter((f) => f.group === group);
            if (fields.length === 0) return null;
            return (
              <fieldset key={group} className="space-y-5 border-t border-slate-200 pt-6">
                <legend className="float-left w-full text-lg font-semibold">{group === "evidence" ? (spec.evidenceTitle ?? title) : title}</legend>
                {sectioned(fields).map((part) => {
                  const one = (f: FormField) => {
                    if (f.kind === "wallet") {
                      return f.name === walletAt && spec.walletChallenge
                        ? <WalletStep key={f.name} claimType={spec.key} fields={spec.walletChallenge} networks={walletNetworks} values={values} errors={errors} />
                        : null;
                    }
                    return (
                      <Field key={f.name} f={f} error={errors[f.name]} autoFocus={f.name === firstError}
                        value={values[f.name] ?? f.defaultValue ?? (f.kind === "datetime" && f.required ? nowUtc : "")} />
                    );
                  };
                  if (!part.section) return part.fields.map(one);
                  const { section } = part;
                  const helpId = `${idOf(section.name)}-help`;
                  return (
                    <fieldset key={section.name} data-testid={`section-${section.name}`} aria-describedby={section.help ? helpId : undefined}
                      className="min-w-0 space-y-4 rounded border border-slate-200 bg-slate-50/60 p-4">
                      <legend className="px-1 text-sm font-semibold">{section.label}{!section.required && !/optional/i.test(section.label) && <span className="font-normal text-slate-500"> (optional)</span>}</legend>
                      {section.help && <p id={helpId} className="-mt-2 text-xs text-slate-600">{section.help}</p>}
                      {part.fields.map(one)}
                    </fieldset>
                  );
                })}
                {group === "record" && (
                  <EnvironmentChoice current={environment} blocked={liveBlockedReason} error={errors.environment} autoFocus={firstError === "environment"} />
                )}
              </fieldset>
            );
          })}
          <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-6">
            <button className={buttonClass} type="submit" disabled={pending} data-testid="create-record">
              {pending ? "Creating…" : "Create record"}
            </button>
            <span className="text-sm text-slate-600">Pressing it twice, or again after a lost answer, creates one record.</span>
          </div>
        </>
      )}
      {!spec && <p className="text-sm text-slate-600" data-testid="choose-first">Choose a kind of record to see what it needs.</p>}
    </form>
  );
}

/** The fields in order, those of one nested object (a listing's payee) together under its section. */
function sectioned(fields: FormField[]): { section?: FormSection; fields: FormField[] }[] {
  const out: { section?: FormSection; fields: FormField[] }[] = [];
  for (const f of fields) {
    const last = out.at(-1);
    if (last && f.section && last.section?.name === f.section.name) last.fields.push(f);
    else out.push({ section: f.section, fields: [f] });
  }
  return out;
}

const idOf = (name: string) => `f-${name.replace(/[^a-zA-Z0-9_-]/g, "-")}`;

function Field({ f, value, error, autoFocus }: { f: FormField; value: string; error?: string; autoFocus: boolean }) {
  const id = idOf(f.name);
  const describedBy = [f.help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const aria = { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy } as const;
  const help = f.help && <p id={`${id}-help`} className="mt-1 text-xs text-slate-600">{f.help}</p>;
  const errorText = error && <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700" data-testid="field-error">{error}</p>;
  const label = <>{f.label}{!f.required && <span className="font-normal text-slate-500"> (optional)</span>}</>;
  const invalid = error ? "border-red-500 ring-1 ring-red-500" : "";

  if (f.kind === "choice") {
    return (
      <div data-testid={`field-${f.name}`}>
        <fieldset {...aria}>
          <legend className="text-sm font-medium">{label}</legend>
          <div className="mt-2 space-y-2">
            {f.options?.map((o, i) => (
              <label key={o.value} className="flex items-start gap-3 text-sm">
                <input type="radio" name={f.name} value={o.value} defaultChecked={o.value === value} className="mt-1 shrink-0"
                  autoFocus={autoFocus && i === 0} />
                <span className="min-w-0"><span className="font-medium">{o.label}</span>{o.help && <span className="block text-slate-600">{o.help}</span>}</span>
              </label>
            ))}
          </div>
        </fieldset>
        {errorText}{help}
      </div>
    );
  }
  if (f.kind === "files") {
    return (
      <div data-testid={`field-${f.name}`}>
        <label htmlFor={id} className="block text-sm font-medium">{label}</label>
        <input id={id} name={f.name} type="file" multiple accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg" autoFocus={autoFocus}
          className="mt-1 block w-full text-sm file:mr-3 file:rounded file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm" {...aria} />
        {errorText}{help}
      </div>
    );
  }
  const common = { id, name: f.name, defaultValue: value, autoFocus, placeholder: f.placeholder, maxLength: f.maxLength, ...aria };
  return (
    <div data-testid={`field-${f.name}`}>
      <label htmlFor={id} className="block text-sm font-medium">{label}</label>
      {(f.kind === "textarea" || f.kind === "list") && <textarea {...common} rows={3} className={`${inputClass} ${invalid}`} />}
      {f.kind === "select" && (
        <select {...common} className={`${inputClass} ${invalid}`}>
          <option value="">Choose…</option>
          {f.options?.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      )}
      {f.kind === "datetime" && <input {...common} type="datetime-local" step={60} className={`${inputClass} sm:max-w-xs ${invalid}`} />}
      {f.kind === "secret" && <input {...common} defaultValue="" type="password" autoComplete="off" className={`${inputClass} ${invalid}`} />}
      {(f.kind === "text" || f.kind === "url") && (
        <input {...common} type={f.kind === "url" ? "url" : "text"} inputMode={f.kind === "url" ? "url" : undefined} autoComplete="off" className={`${inputClass} ${invalid}`} />
      )}
      {errorText}{help}
    </div>
  );
}

function EnvironmentChoice({ current, blocked, error, autoFocus }: { current: string; blocked: string | null; error?: string; autoFocus: boolean }) {
  return (
    <div data-testid="field-environment">
      <fieldset aria-describedby={blocked ? "environment-help" : undefined}>
        <legend className="text-sm font-medium">Environment</legend>
        <div className="mt-2 space-y-2 text-sm">
          <label className="flex items-start gap-3">
            <input type="radio" name="environment" value="sandbox" defaultChecked={current === "sandbox"} className="mt-1 shrink-0" autoFocus={autoFocus} />
            <span><span className="font-medium">Sandbox</span><span className="block text-slate-600">A free test record, marked “Sandbox — not verified”, and always private. Runs the same checks.</span></span>
          </label>
          <label className={`flex items-start gap-3 ${blocked ? "text-slate-400" : ""}`}>
            <input type="radio" name="environment" value="live" defaultChecked={current === "live"} disabled={blocked !== null} className="mt-1 shrink-0" />
            <span><span className="font-medium">Live</span><span className="block">A real record; counts against your plan&apos;s monthly allowance.</span></span>
          </label>
        </div>
      </fieldset>
      {blocked && <p id="environment-help" className="mt-1 text-xs text-slate-600" data-testid="live-reason">{blocked}</p>}
      {error && <p className="mt-1 text-sm font-medium text-red-700" data-testid="field-error">{error}</p>}
    </div>
  );
}
