"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Alert, buttonClass, inputClass, secondaryButtonClass } from "@/components/portal";
import { emailSignInLinkAction } from "./actions";
import { SUSPENDED_SIGNIN_MESSAGE } from "./link/messages";

const MESSAGES: Record<string, string> = {
  rate_limited: "Too many sign-in attempts. Wait a minute and try again.",
  account_suspended: SUSPENDED_SIGNIN_MESSAGE,
  CredentialsSignin: "That email and password do not match an account.",
};

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [error, setError] = useState<string | undefined>(initialError ? (MESSAGES[initialError] ?? "Sign-in failed. Try again.") : undefined);
  const [notice, setNotice] = useState<string | undefined>();
  const [pending, setPending] = useState<false | "password" | "link">(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (!email || !password) {
      setError("Enter your email address and password.");
      return;
    }
    setPending("password");
    setError(undefined);
    setNotice(undefined);
    try {
      const res = await signIn("credentials", { email, password, redirect: false, callbackUrl });
      if (res?.ok && !res.error) {
        window.location.assign(callbackUrl);
        return;
      }
      setError(MESSAGES[res?.error ?? ""] ?? MESSAGES.CredentialsSignin);
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    }
    setPending(false);
  }

  /** The same email field, no password: a single-use link by mail (a server action). */
  async function onEmailLink(e: React.MouseEvent<HTMLButtonElement>) {
    const email = String(new FormData(e.currentTarget.form!).get("email") ?? "").trim();
    setError(undefined);
    setNotice(undefined);
    if (!email) {
      setError("Enter your email address, then ask for a sign-in link.");
      return;
    }
    setPending("link");
    try {
      const r = await emailSignInLinkAction(email);
      if (r.error) setError(r.error);
      else setNotice(r.sent);
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    }
    setPending(false);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      {error && <Alert kind="error">{error}</Alert>}
      {notice && <Alert kind="success" id="link-sent">{notice}</Alert>}
      <label className="block text-sm font-medium">
        Email
        <input className={inputClass} type="email" name="email" autoComplete="email" required maxLength={254} />
      </label>
      <div>
        <label className="block text-sm font-medium">
          Password
          <input className={inputClass} type="password" name="password" autoComplete="current-password" required maxLength={200} />
        </label>
        <p className="mt-1 text-right text-sm"><Link className="underline" href="/reset-password">Forgot password?</Link></p>
      </div>
      <button className={buttonClass} type="submit" disabled={pending !== false}>{pending === "password" ? "Signing in…" : "Sign in"}</button>
      <div className="border-t border-slate-200 pt-4">
        <p className="text-sm text-slate-600">No password, or rather not type it? We can mail you a link that signs you in once.</p>
        <button className={`${secondaryButtonClass} mt-2`} type="button" onClick={onEmailLink} disabled={pending !== false}>
          {pending === "link" ? "Sending…" : "Email me a sign-in link"}
        </button>
      </div>
      <p className="text-sm text-slate-600">
        No account yet? <Link className="underline" href="/signup">Sign up</Link>
      </p>
    </form>
  );
}
