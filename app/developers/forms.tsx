"use client";

import { signOut } from "next-auth/react";
import { useActionState, useId } from "react";
import Link from "next/link";
import { Alert, FieldError, OnceSecret, buttonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import {
  createKeyAction, createWebhookAction, registerMandateKeyAction, replayEventAction, requestPlanAction, resendConfirmationAction,
  rotateSecretAction, sendTestEventAction,
  type CreateKeyState, type MandateKeyState, type PlanRequestState, type ReplayState, type ResendState, type RotateState, type TestEventState,
  type WebhookState,
} from "./actions";
import { ROTATION_CHOICES } from "./rotation-choices";
import { SCOPES, SCOPE_DESCRIPTIONS } from "@/lib/accounts/scopes";

export function CreateKeyForms({ liveBlockedReason }: { liveBlockedReason: string | null }) {
  const [state, action, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, {});
  return (
    <div>
      <div className="flex flex-wrap items-start gap-3">
        <form action={action}>
          <input type="hidden" name="environment" value="sandbox" />
          <button className={buttonClass} type="submit" disabled={pending}>Create sandbox key</button>
        </form>
        <form action={action}>
          <input type="hidden" name="environment" value="live" />
          <button className={buttonClass} type="submit" disabled={pending || liveBlockedReason !== null}
            aria-describedby={liveBlockedReason ? "live-reason" : undefined}>
            Create live key
          </button>
        </form>
      </div>
      {liveBlockedReason && <p id="live-reason" className="mt-2 text-sm text-slate-600" data-testid="live-reason">{liveBlockedReason}</p>}
      <details className="mt-3 max-w-3xl rounded border border-slate-200 bg-white p-3 text-sm" data-testid="restricted-key">
        <summary className="cursor-pointer font-medium">Restricted key: only some operations</summary>
        <p className="mt-1 text-slate-600">
          For an agent or a service that needs only part of the API. An operation outside its scopes is refused with 403
          <code> insufficient_scope</code>; each operation&apos;s scope is in the API reference.
        </p>
        <form action={action} className="mt-2 space-y-2">
          <input type="hidden" name="restricted" value="yes" />
          <fieldset>
            <legend className="sr-only">Scopes</legend>
            <div className="grid gap-1 sm:grid-cols-2">
              {SCOPES.map((s) => (
                <label key={s} className="flex items-start gap-2">
                  <input type="checkbox" name="scopes" value={s} className="mt-1" />
                  <span><code>{s}</code> <span className="text-slate-600">— {SCOPE_DESCRIPTIONS[s]}</span></span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap items-center gap-2">
            <label className="text-slate-600">Environment{" "}
              <select name="environment" defaultValue="sandbox" className="rounded border border-slate-300 bg-white px-2 py-1">
                <option value="sandbox">sandbox</option>
                <option value="live" disabled={liveBlockedReason !== null}>live</option>
              </select>
            </label>
            <button className={secondaryButtonClass} type="submit" disabled={pending}>Create restricted key</button>
          </div>
        </form>
      </details>
      {state.error && <Alert kind="error">{state.error}</Alert>}
      {state.created && (
        <OnceSecret label={`Your new ${state.created.environment} key (${state.created.keyId})${state.created.scopes ? `, only ${state.created.scopes.join(", ")}` : ""}`}
          secret={state.created.secret} copyLabel={`${state.created.environment} API key`} id="new-api-key" />
      )}
    </div>
  );
}

export function ResendConfirmation() {
  const [state, action, pending] = useActionState<ResendState>(resendConfirmationAction, {});
  return (
    <form action={action} className="inline">
      <button className={secondaryButtonClass} type="submit" disabled={pending}>Send the confirmation mail again</button>
      {state.message && <Alert kind="info">{state.message}</Alert>}
      {state.error && <Alert kind="error">{state.error}</Alert>}
    </form>
  );
}

export function SignOutButton() {
  return (
    <button className="underline" type="button" onClick={() => signOut({ callbackUrl: "/signin" })}>Sign out</button>
  );
}

/** aria-invalid and aria-describedby for a field with its error shown under it. */
const described = (id: string, error?: string) => ({ "aria-invalid": Boolean(error), "aria-describedby": error ? id : undefined });

/**
 * Sandbox always; live is offered (and accepted by the server action) only when the account
 * may have live keys. Keyed by the value to show: React does not apply a changed defaultValue
 * to a mounted select, and resets the form to it after each action.
 */
function EnvironmentSelect({ liveBlockedReason, id, value, error }: { liveBlockedReason: string | null; id: string; value?: string; error?: string }) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label className="block text-sm" htmlFor={id}>
        Environment
        <select key={value ?? "sandbox"} id={id} name="environment" defaultValue={value === "live" ? "live" : "sandbox"} className={inputClass}
          {...described(errorId, error)}>
          <option value="sandbox">sandbox</option>
          <option value="live" disabled={liveBlockedReason !== null}>
            {liveBlockedReason ? "live (needs a confirmed email and a plan)" : "live"}
          </option>
        </select>
      </label>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export function MandateKeyForm({ liveBlockedReason }: { liveBlockedReason: string | null }) {
  const [state, action, pending] = useActionState<MandateKeyState, FormData>(registerMandateKeyAction, {});
  const id = useId();
  const v = state.values;
  const e = state.errors ?? {};
  return (
    <div>
      <form action={action} className="grid gap-3 rounded border border-slate-200 p-4" data-testid="mandate-key-form">
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
          <div>
            <label className="block text-sm">
              Key id
              <input name="key_id" className={`${inputClass} font-mono`} required minLength={3} maxLength={100}
                pattern="[A-Za-z0-9][A-Za-z0-9._:\-]{2,99}" placeholder="acme-treasury-2026" defaultValue={v?.key_id ?? ""}
                title="3–100 characters: letters, digits, '.', '_', ':' and '-', starting with a letter or digit" {...described(`${id}-key-id`, e.key_id)} />
            </label>
            <FieldError id={`${id}-key-id`} message={e.key_id} />
          </div>
          <EnvironmentSelect liveBlockedReason={liveBlockedReason} id="mandate-key-environment" value={v?.environment} error={e.environment} />
        </div>
        <div>
          <label className="block text-sm">
            Public key (Ed25519, base64url)
            <input name="public_key" className={`${inputClass} font-mono`} required maxLength={200} autoComplete="off" spellCheck={false}
              placeholder="43 characters, e.g. the x of your key's JWK" defaultValue={v?.public_key ?? ""}
              aria-invalid={Boolean(e.public_key)} aria-describedby={e.public_key ? `${id}-public-key public-key-help` : "public-key-help"} />
          </label>
          <FieldError id={`${id}-public-key`} message={e.public_key} />
        </div>
        <p id="public-key-help" className="text-sm text-slate-600" data-testid="public-key-help">
          Paste only the <strong>public</strong> half: the 32-byte public key as base64url without padding (a JWK&apos;s <code>x</code>).
          Never paste a private key (<code>d</code>, a 64-byte secret key or a PEM private key) — we never need it, and it is refused.
        </p>
        {e.form && <Alert kind="error">{e.form}</Alert>}
        <div><button className={buttonClass} type="submit" disabled={pending}>Register mandate key</button></div>
      </form>
      {state.registered && (
        <Alert kind="success">
          Registered mandate key <code>{state.registered.keyId}</code> ({state.registered.environment}). Anyone can read it back at{" "}
          <Link className="underline" href={state.registered.url}>{state.registered.url}</Link>.
        </Alert>
      )}
    </div>
  );
}

export function WebhookForm({ liveBlockedReason, events }: { liveBlockedReason: string | null; events: readonly string[] }) {
  const [state, action, pending] = useActionState<WebhookState, FormData>(createWebhookAction, {});
  const id = useId();
  const v = state.values;
  const e = state.errors ?? {};
  return (
    <div>
      <form action={action} className="grid gap-3 rounded border border-slate-200 p-4" data-testid="webhook-form">
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem]">
          <div>
            <label className="block text-sm">
              Destination URL
              <input name="url" type="url" className={`${inputClass} font-mono`} required maxLength={2000}
                placeholder="https://hooks.example.com/prs" defaultValue={v?.url ?? ""} {...described(`${id}-url`, e.url)} />
            </label>
            <FieldError id={`${id}-url`} message={e.url} />
          </div>
          <EnvironmentSelect liveBlockedReason={liveBlockedReason} id="webhook-environment" value={v?.environment} error={e.environment} />
        </div>
        <fieldset className="text-sm" aria-describedby={e.events ? `${id}-events` : undefined}>
          <legend>Events (none checked: all)</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {events.map((ev) => (
              <label key={ev} className="inline-flex items-center gap-1">
                <input type="checkbox" name="events" value={ev} defaultChecked={v?.events.includes(ev) ?? false} /> <code>{ev}</code>
              </label>
            ))}
          </div>
          <FieldError id={`${id}-events`} message={e.events} />
        </fieldset>
        <div>
          <label className="block text-sm">
            Description (optional)
            <input name="description" className={inputClass} maxLength={500} defaultValue={v?.description ?? ""} {...described(`${id}-description`, e.description)} />
          </label>
          <FieldError id={`${id}-description`} message={e.description} />
        </div>
        {e.form && <Alert kind="error">{e.form}</Alert>}
        <div><button className={buttonClass} type="submit" disabled={pending}>Add webhook destination</button></div>
      </form>
      {state.created && (
        <OnceSecret
          label={`Signing secret of ${state.created.url} (${state.created.environment}, ${state.created.id})`}
          secret={state.created.secret}
          copyLabel="webhook signing secret"
          id="new-webhook-secret"
          note="Copy it now: it is shown only this once. Your endpoint verifies our webhook-signature header with it (Standard Webhooks); if it is lost, delete the destination and add it again."
        />
      )}
    </div>
  );
}

/**
 * "Go live": choose a plan and send the request to an admin. Offered while the address is
 * confirmed and no request waits; the server action applies the same rules (a forged post is
 * refused there, not here).
 */
export function PlanRequestForm({ blocked, plans, current }: { blocked: string | null; plans: readonly string[]; current: string }) {
  const [state, action, pending] = useActionState<PlanRequestState, FormData>(requestPlanAction, {});
  const id = useId();
  if (state.sent) return <Alert kind="success" id="plan-request-sent">{state.sent}</Alert>;
  return (
    <form action={action} className="grid max-w-xl gap-3 rounded border border-slate-200 p-4" data-testid="plan-request-form">
      <fieldset className="text-sm">
        <legend className="font-medium">Plan</legend>
        <div className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
          {plans.map((p, i) => (
            <label key={p} className="inline-flex items-center gap-2">
              <input type="radio" name="plan" value={p} defaultChecked={p !== current && (i === 0 || plans[0] === current)} disabled={p === current} />
              {p}{p === current && " (your plan)"}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="block text-sm">
        What you will use live records for (optional)
        <textarea name="note" className={inputClass} rows={2} maxLength={1000} />
      </label>
      {blocked && <p className="text-sm text-amber-800" data-testid="plan-request-blocked" id={`${id}-blocked`}>{blocked}</p>}
      {state.error && <Alert kind="error">{state.error}</Alert>}
      <div>
        <button className={buttonClass} type="submit" disabled={pending || blocked !== null} aria-describedby={blocked ? `${id}-blocked` : undefined}>
          Request this plan
        </button>
      </div>
    </form>
  );
}

/** "Send test event" for one webhook destination; the delivery then shows in its "Recent deliveries". */
/** Resend one event to its endpoint (same webhook-id). */
export function ReplayButton({ id, environment, eventId, eventType }: { id: string; environment: string; eventId: string; eventType: string }) {
  const [state, action, pending] = useActionState<ReplayState, FormData>(replayEventAction, {});
  return (
    <form action={action} className="inline" data-testid="delivery-replay-form">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="environment" value={environment} />
      <input type="hidden" name="event_id" value={eventId} />
      <button className="ml-2 underline hover:text-slate-900 disabled:opacity-50" type="submit" disabled={pending} aria-label={`Resend ${eventType} ${eventId}`}>
        {pending ? "Resending…" : "Resend"}
      </button>
      {state.sent && <span role="status" className="ml-2 text-emerald-800" data-testid="delivery-replayed">{state.sent}</span>}
      {state.error && <span role="alert" className="ml-2 text-red-800">{state.error}</span>}
    </form>
  );
}

/** A new signing secret (shown once), the current one still signing for the chosen time. */
export function RotateSecretForm({ id, environment, url }: { id: string; environment: string; url: string }) {
  const [state, action, pending] = useActionState<RotateState, FormData>(rotateSecretAction, {});
  const fieldId = useId();
  return (
    <div className="text-left">
      <form action={action} className="flex flex-wrap items-end gap-2" data-testid="webhook-rotate-form">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="environment" value={environment} />
        <label className="text-xs text-slate-600" htmlFor={fieldId}>Old secret stops</label>
        <select id={fieldId} name="overlap" defaultValue="86400" className="rounded border border-slate-300 bg-white px-1 py-1 text-xs">
          {ROTATION_CHOICES.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
        </select>
        <button className={`${secondaryButtonClass} whitespace-nowrap`} type="submit" disabled={pending} aria-label={`Rotate the signing secret of ${url}`}>
          {pending ? "Rotating…" : "Rotate secret"}
        </button>
      </form>
      {state.error && <p role="alert" className="mt-1 max-w-xs text-xs text-red-800">{state.error}</p>}
      {state.rotated && (
        <OnceSecret
          label={`New signing secret of ${state.rotated.url} (${state.rotated.environment}, ${state.rotated.id})`}
          secret={state.rotated.secret}
          copyLabel="new webhook signing secret"
          id={`rotated-${state.rotated.id}`}
          note={state.rotated.oldUntil
            ? `Copy it now: it is shown only this once. Until ${state.rotated.oldUntil.replace("T", " ").slice(0, 16)} UTC every delivery is signed with both secrets, so switch your endpoint to the new one before then.`
            : "Copy it now: it is shown only this once. The old secret no longer signs: switch your endpoint to this one now."}
        />
      )}
    </div>
  );
}

export function TestEventButton({ id, environment, url }: { id: string; environment: string; url: string }) {
  const [state, action, pending] = useActionState<TestEventState, FormData>(sendTestEventAction, {});
  return (
    <form action={action} className="inline-block text-left" data-testid="webhook-test-form">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="environment" value={environment} />
      <button className={`${secondaryButtonClass} whitespace-nowrap`} type="submit" disabled={pending} aria-label={`Send a test event to ${url}`}>
        {pending ? "Sending…" : "Send test event"}
      </button>
      {state.sent && <p role="status" className="mt-1 max-w-xs text-xs text-emerald-800" data-testid="webhook-test-sent">{state.sent}</p>}
      {state.error && <p role="alert" className="mt-1 max-w-xs text-xs text-red-800">{state.error}</p>}
    </form>
  );
}
