import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PortalHeader, buttonClass } from "@/components/portal";
import { confirmEmail } from "@/lib/accounts/manage-account";
import { checkConfirmToken } from "@/lib/auth/confirm-token";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Confirm email", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function ConfirmPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const check = checkConfirmToken(typeof token === "string" ? token : undefined);
  const confirmed = check.ok && (await confirmEmail(await getDb(), check.accountId));
  return (
    <>
      <PortalHeader />
      <main className="mx-auto max-w-md px-6 py-12">
        <h1 className="text-2xl font-semibold">Confirm your email address</h1>
        {confirmed ? (
          <>
            <Alert kind="success" id="confirm-result">Your email address is confirmed.</Alert>
            <p className="mt-6"><Link className={buttonClass} href="/developers">Go to the developer portal</Link></p>
          </>
        ) : (
          <Alert kind="error" id="confirm-result">
            {!check.ok && check.reason === "expired"
              ? "This confirmation link has expired. Sign in and send a new one from the developer page."
              : "This confirmation link is not valid. Use the latest link we mailed you, or send a new one from the developer page."}
          </Alert>
        )}
      </main>
    </>
  );
}
