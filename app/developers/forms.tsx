"use client";

import { signOut } from "next-auth/react";
import { useActionState } from "react";
import { Alert, OnceSecret, buttonClass, secondaryButtonClass } from "@/components/portal";
import { createKeyAction, resendConfirmationAction, type CreateKeyState, type ResendState } from "./actions";

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
      {state.error && <Alert kind="error">{state.error}</Alert>}
      {state.created && (
        <OnceSecret label={`Your new ${state.created.environment} key (${state.created.keyId})`} secret={state.created.secret} />
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
