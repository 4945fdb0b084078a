"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Alert, buttonClass, inputClass } from "@/components/portal";

const MESSAGES: Record<string, string> = {
  rate_limited: "Too many sign-in attempts. Wait a minute and try again.",
  CredentialsSignin: "That email and password do not match an account.",
};

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [error, setError] = useState<string | undefined>(initialError ? (MESSAGES[initialError] ?? "Sign-in failed. Try again.") : undefined);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (!email || !password) {
      setError("Enter your email address and password.");
      return;
    }
    setPending(true);
    setError(undefined);
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

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      {error && <Alert kind="error">{error}</Alert>}
      <label className="block text-sm font-medium">
        Email
        <input className={inputClass} type="email" name="email" autoComplete="email" required maxLength={254} />
      </label>
      <label className="block text-sm font-medium">
        Password
        <input className={inputClass} type="password" name="password" autoComplete="current-password" required maxLength={200} />
      </label>
      <button className={buttonClass} type="submit" disabled={pending}>{pending ? "Signing in…" : "Sign in"}</button>
      <p className="text-sm text-slate-600">
        No account yet? <Link className="underline" href="/signup">Sign up</Link>
      </p>
    </form>
  );
}
