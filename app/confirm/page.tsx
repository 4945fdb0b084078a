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
 * The sign-up's confirmation link. Confirming keeps the account as it was made — its
 * password, sessions and keys — so the person must say they made it: opening the link
 * (or a mail scanner fetching it) only asks; the button confirms. Someone who did not sign
 * up is sent to "Forgot password?", whose link takes the account over (lib/auth/redeem-login-link.ts).
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
        ) : (
          <>
            <p className="mt-4 text-sm text-slate-700">
              A Proof Records account was created with <strong data-testid="confirm-email">{account.email}</strong>.
              Confirming it keeps the account as it was made: its password, its API keys and everything set up in it.
            </p>
            <Alert kind="info">
              If you did not create this account, do not confirm it. Use{" "}
              <Link className="underline" href="/reset-password">Forgot password?</Link> with this address instead:
              setting a password through the link we mail you takes the account over and revokes the password,
              sessions, API keys, mandate keys and webhooks of whoever created it.
            </Alert>
            <ConfirmForm token={token as string} />
          </>
        )}
      </PortalMain>
    </>
  );
}
