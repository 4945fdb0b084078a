import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PortalHeader, PortalMain } from "@/components/portal";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { getVerificationState } from "@/lib/organisations/apply-for-verification";
import { formatUtcDay } from "@/lib/format/dates";
import { SignOutButton } from "../developers/forms";
import { ApplyForm } from "./forms";

export const metadata: Metadata = { title: "Verified organisation", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function OrganisationPage() {
  const account = await requireAccount("/organisation");
  const { application: app, organisation: org } = await getVerificationState(await getDb(), account.id);
  const pending = app?.status === "pending";

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-10">
        <section>
          <h1 className="text-2xl font-semibold">Verified organisation</h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">
            Until a reviewer verifies the legal entity behind this account, every certificate shows your account name as self-declared.
            Once verified, your records name the entity&apos;s legal name (from the LEI register, or from your documents when it has no LEI) —
            locked until a new verification — and public checks can say the operator is who the record names.
          </p>
        </section>

        <section data-testid="org-state">
          <h2 className="text-lg font-semibold">Now</h2>
          {org ? (
            org.status === "verified" ? (
              <Alert kind="success" id="org-verified">
                <span data-testid="org-status" data-status="verified">Verified organisation: <strong>{org.legal_name}</strong></span>
                {org.lei && <> (LEI <code>{org.lei}</code>)</>}, since {formatUtcDay(org.verified_at)}. Your account name is this legal name and is locked.
              </Alert>
            ) : (
              <Alert kind="error" id="org-lapsed">
                <span data-testid="org-status" data-status="lapsed">Lapsed: <strong>{org.legal_name}</strong></span> — the LEI register no longer lists
                {org.lei && <> <code>{org.lei}</code></>} as ISSUED and ACTIVE. Renew the LEI; the next re-check restores the verification.
              </Alert>
            )
          ) : (
            <p className="mt-2 text-sm text-slate-600" data-testid="org-status" data-status="none">This account is not a verified organisation: its name is self-declared.</p>
          )}
          {app && (
            <div className="mt-4 rounded border border-slate-200 bg-white px-4 py-3 text-sm" data-testid="application" data-status={app.status}>
              <p>
                Latest application <code>{app.id}</code> ({formatUtcDay(app.created_at)}): <strong data-testid="application-status">{app.status}</strong>
                {app.status === "rejected" && app.reason && <> — <span data-testid="application-reason">{app.reason}</span></>}
                {app.status === "pending" && <> — a reviewer is checking the register, your documents and an independent channel.</>}
              </p>
              {app.lei && <p className="mt-1 text-slate-600">LEI <code>{app.lei}</code>{app.register?.result === "found" && <>: the register names <strong>{app.register.legal_name}</strong> ({app.register.registration_status}/{app.register.entity_status})</>}{app.register?.result === "not_found" && <>: the register has no record of it</>}{app.register?.result === "unreachable" && <>: the register could not be reached; the reviewer checks it</>}.</p>}
              <p className="mt-1 text-slate-600">Applicant: {app.applicant.name}, {app.applicant.role} ({app.applicant.email})</p>
              {app.documents.length > 0 && (
                <ul className="mt-1 list-disc pl-5">
                  {app.documents.map((d) => <li key={d.id} className="[overflow-wrap:anywhere]"><a className="underline" href={`/organisation/files/${d.id}`} target="_blank" rel="noopener">{d.filename}</a> <span className="text-slate-500">({d.content_type})</span></li>)}
                </ul>
              )}
            </div>
          )}
        </section>

        <section>
          <h2 className="text-lg font-semibold">{org ? "Apply again (a new verification)" : "Apply"}</h2>
          {pending
            ? <p className="mt-2 text-sm text-slate-600" data-testid="pending-note">An application is waiting for a reviewer; you can apply again once it is decided.</p>
            : <ApplyForm />}
          <p className="mt-4 text-sm text-slate-600">The same works through the API: <code>POST /api/v1/files</code>, then <code>POST /api/v1/account/organisation-verification</code> (<Link className="underline" href="/docs">API reference</Link>).</p>
        </section>
      </PortalMain>
    </>
  );
}
