"use client";

import Link from "next/link";
import { useActionState } from "react";
import { PasswordFields } from "@/components/password-fields";
import { Alert, buttonClass, inputClass } from "@/components/portal";
import type { LinkRequestState } from "@/lib/auth/request-login-link";
import { emailResetLinkAction, setNewPasswordAction, type NewPasswordState } from "./actions";

export function RequestResetForm() {
  const [state, action, pending] = useActionState<LinkRequestState, FormData>(emailResetLinkAction, {});
  return (
    <form action={action} noValidate className="space-y-4">
      <h2 className="text-lg font-semibold">Get a link to set a new password</h2>
      <p className="text-sm text-slate-600">
        Also for accounts created by an operator, which have no password yet.
      </p>
      {state.error && <Alert kind="error">{state.error}</Alert>}
      {state.sent && <Alert kind="success" id="reset-sent">{state.sent}</Alert>}
      <label className="block text-sm font-medium">
        Email
        <input className={inputClass} type="email" name="email" autoComplete="email" required maxLength={254} defaultValue={state.email} />
      </label>
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Sending…" : "Email me a reset link"}</button>
      <p className="text-sm text-slate-600"><Link className="underline" href="/signin">Back to sign in</Link></p>
    </form>
  );
}

export function NewPasswordForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState<NewPasswordState, FormData>(setNewPasswordAction, {});
  return (
    <form action={action} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">Choose a new password for <strong data-testid="reset-email">{email}</strong>.</p>
      {state.error && (
        <Alert kind="error" id="reset-result">
          {state.error} <Link className="underline" href="/reset-password">Ask for a new link</Link>
        </Alert>
      )}
      <PasswordFields token={token} email={email} fieldError={state.fieldError}
        label={<>New password <span className="font-normal text-slate-500">(at least 10 characters)</span></>} />
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Saving…" : "Set new password"}</button>
    </form>
  );
}
