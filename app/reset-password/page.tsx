import type { Metadata } from "next";
import { Alert, PortalHeader, PortalMain } from "@/components/portal";
import { peekLoginToken } from "@/lib/auth/login-token";
import { findAccountById } from "@/lib/auth/signup";
import { getDb } from "@/lib/db/client";
import { UnconfirmedWarning } from "@/components/unconfirmed-warning";
import { NewPasswordForm, RequestResetForm } from "./forms";
import { RESET_PROBLEMS } from "./messages";

// A reset link's token is in this page's URL: never indexed, never sent on as a Referer.
export const metadata: Metadata = { title: "Reset password", robots: { index: false }, referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/**
 * Without a token: ask for a reset link. With one: the new-password form. Opening the link
 * only looks the token up (mail scanners fetch links); it is used when the form is sent.
 */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const db = await getDb();
  const check = token === undefined ? undefined : await peekLoginToken(db, token, "password_reset");
  const account = check?.ok ? await findAccountById(db, check.accountId) : undefined;
  return (
    <>
      <PortalHeader />
      <PortalMain narrow className="space-y-6">
        <h1 className="text-2xl font-semibold">Reset your password</h1>
        {check?.ok && account ? (
          <>
            {!account.emailConfirmedAt && <UnconfirmedWarning createdBy={account.createdBy} />}
            <NewPasswordForm token={token as string} email={account.email} />
          </>
        ) : (
          <>
            {check && <Alert kind="error" id="reset-result">{RESET_PROBLEMS[check.ok ? "invalid" : check.reason]}</Alert>}
            <RequestResetForm />
          </>
        )}
      </PortalMain>
    </>
  );
}
