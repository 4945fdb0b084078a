import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PortalHeader, PortalMain, buttonClass } from "@/components/portal";
import { checkConfirmToken } from "@/lib/auth/confirm-token";
import { findAccountById } from "@/lib/auth/signup";
import { getDb } from "@/lib/db/client";
import { ConfirmForm } from "./confirm-form";
import { CONFIRM_MESSAGES } from "./messages";

export const metadata: Metadata = { title: "Confirm email", robots: { index: false }, referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/**
 * The sign-up's confirmation link. The link proves the inbox, not who signed up, so confirming
 * does what the mailed sign-in and reset links do (lib/auth/redeem-login-link.ts): the person
 * sets the account's password, and the sessions, API keys, mandate keys and webhooks made
 * before are revoked. Opening the link (or a mail scanner fetching it) only asks; the button
 * confirms.
 */
export default async function ConfirmPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const check = checkConfirmToken(typeof token === "string" ? token : undefined);
  const account = check.ok ? await findAccountById(await getDb(), check.accountId) : undefined;
  return (
    <>
      <PortalHeader />
      <PortalMain narrow>
        <h1 className="text-2xl font-semibold">Confirm your email address</h1>
        {!account ? (
          <Alert kind="error" id="confirm-result">{CONFIRM_MESSAGES[!check.ok && check.reason === "expired" ? "expired" : "invalid"]}</Alert>
        ) : account.emailConfirmedAt ? (
          <>
            <Alert kind="success" id="confirm-result">{CONFIRM_MESSAGES.alreadyConfirmed}</Alert>
            <p className="mt-6"><Link className={buttonClass} href="/developers">Go to the developer portal</Link></p>
          </>
        ) : account.createdBy === "operator" ? (
          // Made by the operator (CLI): confirming revokes nothing (lib/auth/redeem-login-link.ts, docs/security.md).
          <>
            <p className="mt-4 text-sm text-slate-700">
              The Proof Records operator created an account for <strong data-testid="confirm-email">{account.email}</strong>.
              Confirming it sets the account&apos;s password to the one you enter here; its API keys stay as they are.
            </p>
            <ConfirmForm token={token as string} email={account.email} />
          </>
        ) : (
          <>
            <p className="mt-4 text-sm text-slate-700">
              A Proof Records account was created with <strong data-testid="confirm-email">{account.email}</strong>.
              Confirming it sets the account&apos;s password to the one you enter here and, because anyone can sign up with any
              address, revokes what was made before this confirmation: every session, API key, mandate key and webhook endpoint.
              Create new keys in the developer portal afterwards.
            </p>
            <Alert kind="info">
              If you did not create this account, confirming it still makes it yours: whoever created it loses their password,
              sessions, keys and webhooks. You can also use <Link className="underline" href="/reset-password">Forgot password?</Link>.
            </Alert>
            <ConfirmForm token={token as string} email={account.email} />
          </>
        )}
      </PortalMain>
    </>
  );
}
