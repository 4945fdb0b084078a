import Link from "next/link";
import { PortalHeader, PortalMain } from "@/components/portal";

/** Rendered with HTTP 403 by forbidden(): signed in, but without the role the page needs. */
export default function Forbidden() {
  return (
    <>
      <PortalHeader />
      <PortalMain>
        <h1 className="text-2xl font-semibold" data-testid="forbidden">403 — not for this account</h1>
        <p className="mt-3 text-slate-700">
          This page is for Proof Records reviewers and administrators. Your account does not have that role.
        </p>
        <p className="mt-6 text-sm"><Link className="underline" href="/developers">Back to the developer portal</Link></p>
      </PortalMain>
    </>
  );
}
