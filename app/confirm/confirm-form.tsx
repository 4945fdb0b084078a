"use client";

import Link from "next/link";
import { useActionState } from "react";
import { PasswordFields } from "@/components/password-fields";
import { Alert, buttonClass } from "@/components/portal";
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
      <PasswordFields token={token} email={email} fieldError={state.fieldError}
        label={<>Your password <span className="font-normal text-slate-500">(at least 10 characters; the one you chose at sign-up is fine)</span></>} />
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Confirming…" : "I created this account: confirm it"}</button>
    </form>
  );
}
