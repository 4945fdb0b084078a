"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Alert, buttonClass } from "@/components/portal";
import { LINK_PROBLEMS, SUSPENDED_SIGNIN_MESSAGE } from "./messages";

// next-auth hands back the error code the "magic-link" provider threw (lib/auth/options.ts).
const MESSAGES: Record<string, string> = {
  link_used: LINK_PROBLEMS.used,
  link_expired: LINK_PROBLEMS.expired,
  link_invalid: LINK_PROBLEMS.invalid,
  rate_limited: "Too many sign-in attempts. Wait a minute and try again.",
  account_suspended: SUSPENDED_SIGNIN_MESSAGE,
};

export function LinkSignIn({ token, email }: { token: string; email: string }) {
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function onClick() {
    setPending(true);
    setError(undefined);
    try {
      const res = await signIn("magic-link", { token, redirect: false, callbackUrl: "/developers" });
      if (res?.ok && !res.error) {
        window.location.assign("/developers");
        return;
      }
      setError(MESSAGES[res?.error ?? ""] ?? MESSAGES.link_invalid);
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    }
    setPending(false);
  }

  if (error) {
    return (
      <>
        <Alert kind="error" id="link-result">{error}</Alert>
        <p className="mt-6 text-sm"><Link className="underline" href="/signin">Go to the sign-in page</Link></p>
      </>
    );
  }
  return (
    <div className="mt-4 space-y-4">
      <p className="text-sm text-slate-700">Sign in to Proof Records as <strong data-testid="link-email">{email}</strong>. The link works once.</p>
      <button className={buttonClass} type="button" onClick={onClick} disabled={pending}>{pending ? "Signing in…" : "Sign in"}</button>
    </div>
  );
}
