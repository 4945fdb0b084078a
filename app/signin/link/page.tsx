import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PortalHeader, PortalMain } from "@/components/portal";
import { peekLoginToken } from "@/lib/auth/login-token";
import { findAccountById } from "@/lib/auth/signup";
import { getDb } from "@/lib/db/client";
import { UnconfirmedWarning } from "@/components/unconfirmed-warning";
import { LinkSignIn } from "./link-signin";
import { LINK_PROBLEMS } from "./messages";

// The token is in this page's URL: never indexed, never sent on as a Referer.
export const metadata: Metadata = { title: "Sign in with a link", robots: { index: false }, referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/**
 * Opening the link (GET) changes nothing: mail scanners fetch links before people do. The
 * token is used only when the person presses "Sign in" (next-auth's "magic-link" provider).
 */
export default async function SignInLinkPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const db = await getDb();
  const check = await peekLoginToken(db, token, "magic_link");
  const account = check.ok ? await findAccountById(db, check.accountId) : undefined;
  return (
    <>
      <PortalHeader />
      <PortalMain narrow>
        <h1 className="text-2xl font-semibold">Sign in with your link</h1>
        {check.ok && account ? (
          <>
            {!account.emailConfirmedAt && <UnconfirmedWarning createdBy={account.createdBy} />}
            <LinkSignIn token={token as string} email={account.email} />
          </>
        ) : (
          <>
            <Alert kind="error" id="link-result">{LINK_PROBLEMS[check.ok ? "invalid" : check.reason]}</Alert>
            <p className="mt-6 text-sm"><Link className="underline" href="/signin">Go to the sign-in page</Link></p>
          </>
        )}
      </PortalMain>
    </>
  );
}
