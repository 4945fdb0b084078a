import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Alert, PortalHeader, PortalMain } from "@/components/portal";
import { currentAccount } from "@/lib/auth/session";
import { SignInForm } from "./signin-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site paths: never an open redirect. */
function safeCallback(v: string | string[] | undefined): string {
  const s = typeof v === "string" ? v : "";
  return /^\/(?![/\\])[^\s]*$/.test(s) && s.length < 500 ? s : "/developers";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const callbackUrl = safeCallback(sp.callbackUrl);
  if (await currentAccount()) redirect(callbackUrl);
  const error = typeof sp.error === "string" ? sp.error.slice(0, 50) : undefined;
  return (
    <>
      <PortalHeader />
      <PortalMain narrow>
        {sp.confirmed === "1" && <Alert kind="success">Your email address is confirmed. Sign in to continue.</Alert>}
        {sp.reset === "1" && <Alert kind="success" id="reset-done">Your new password is set. Sign in with it.</Alert>}
        <div className="mt-4"><SignInForm callbackUrl={callbackUrl} initialError={error} /></div>
      </PortalMain>
    </>
  );
}
