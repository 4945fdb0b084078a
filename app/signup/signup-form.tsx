"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useActionState, useEffect, useRef, useState } from "react";
import { Alert, FieldError, OnceSecret, buttonClass, inputClass } from "@/components/portal";
import { signUpAction, type SignUpState } from "./actions";

export function SignUpForm() {
  const [state, dispatch, pending] = useActionState<SignUpState, FormData>(signUpAction, {});
  // The typed password, held only until the new account is signed in with it (never in state, never re-rendered).
  const typed = useRef<{ email: string; password: string } | null>(null);
  const [session, setSession] = useState<"pending" | "signed_in" | "failed">("pending");
  const action = (form: FormData) => {
    typed.current = { email: String(form.get("email") ?? "").trim(), password: String(form.get("password") ?? "") };
    dispatch(form);
  };
  const created = state.created;
  useEffect(() => {
    if (!created) return;
    const creds = typed.current;
    typed.current = null;
    if (!creds) return setSession("failed");
    // Signing up signs you in: the same next-auth sign-in as /signin, with what was just typed.
    signIn("credentials", { ...creds, redirect: false })
      .then((r) => setSession(r?.ok && !r.error ? "signed_in" : "failed"))
      .catch(() => setSession("failed"));
  }, [created]);
  const e = state.errors ?? {};
  if (state.created && session === "pending") {
    return <p className="text-sm text-slate-600" role="status">Your account was created. Signing you in…</p>;
  }
  if (state.created) {
    return (
      <section data-testid="signup-done" data-signed-in={session === "signed_in" ? "yes" : "no"}>
        <h1 className="text-2xl font-semibold">Your account is ready{session === "signed_in" && " — you are signed in"}</h1>
        <Alert kind="success">
          {state.created.mailed
            ? <>We sent a confirmation link to <strong>{state.created.email}</strong>. Confirm your address to unlock live keys.</>
            : <>Your account was created, but the confirmation mail could not be sent. You can send it again from the developer page.</>}
        </Alert>
        <OnceSecret label="Your sandbox API key" secret={state.created.sandboxKey} copyLabel="sandbox API key" id="sandbox-key" />
        <p className="mt-3 text-sm text-slate-600" data-testid="key-revoked-at-confirmation">
          For your safety, this key and anything else made before you confirm your address stop working when you confirm it
          (so nobody who signed up with your address first keeps access). Make a new key in the developer portal afterwards.
        </p>
        <p className="mt-3 text-sm text-slate-600">
          Sandbox keys work at once. Live records need your address confirmed and a plan: the developer portal shows both under
          &ldquo;Going live&rdquo;.
        </p>
        <p className="mt-6">
          {session === "signed_in"
            ? <Link className={buttonClass} href="/developers" data-testid="continue-to-portal">Continue to the developer portal</Link>
            : <Link className={buttonClass} href="/signin">Sign in to the developer portal</Link>}
        </p>
      </section>
    );
  }
  return (
    <form action={action} noValidate className="space-y-4">
      <h1 className="text-2xl font-semibold">Create your account</h1>
      {e.form && <Alert kind="error">{e.form}</Alert>}
      <div>
        <label className="block text-sm font-medium">
          Email
          <input className={inputClass} type="email" name="email" autoComplete="email" required maxLength={254}
            defaultValue={state.values?.email ?? ""} aria-invalid={Boolean(e.email)} aria-describedby={e.email ? "email-error" : undefined} />
        </label>
        <FieldError id="email-error" message={e.email} />
      </div>
      <div>
        <label className="block text-sm font-medium">
          Password <span className="font-normal text-slate-500">(at least 10 characters)</span>
          <input className={inputClass} type="password" name="password" autoComplete="new-password" required minLength={10}
            maxLength={200} aria-invalid={Boolean(e.password)} aria-describedby={e.password ? "password-error" : undefined} />
        </label>
        <FieldError id="password-error" message={e.password} />
      </div>
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Creating…" : "Create account"}</button>
      <p className="text-sm text-slate-600">
        Already have an account? <Link className="underline" href="/signin">Sign in</Link>
      </p>
    </form>
  );
}
