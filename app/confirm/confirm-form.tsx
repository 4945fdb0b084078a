"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Alert, buttonClass, inputClass } from "@/components/portal";
import { confirmEmailAction, type ConfirmState } from "./actions";

/** "Yes, I created this account": the person sets the account's password, and what was made before confirmation is revoked. */
export function ConfirmForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState<ConfirmState, FormData>(confirmEmailAction, {});
  if (state.confirmed) {
    return (
      <>
        <Alert kind="success" id="confirm-result">{state.confirmed}</Alert>
        <p className="mt-6"><Link className={buttonClass} href="/signin?callbackUrl=%2Fdevelopers">Sign in with your new password</Link></p>
      </>
    );
  }
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.error && <Alert kind="error" id="confirm-result">{state.error}</Alert>}
      <input type="hidden" name="token" value={token} />
      {/* Lets password managers store the password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <label className="block text-sm font-medium">
        Your password <span className="font-normal text-slate-500">(at least 10 characters; the one you chose at sign-up is fine)</span>
        <input className={inputClass} type="password" name="password" autoComplete="new-password" required minLength={10}
          maxLength={200} aria-invalid={Boolean(state.fieldError)} aria-describedby="password-error" />
      </label>
      {state.fieldError && <p id="password-error" className="text-sm text-red-700">{state.fieldError}</p>}
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Confirming…" : "I created this account: confirm it"}</button>
    </form>
  );
}
