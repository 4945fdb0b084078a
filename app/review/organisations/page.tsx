import type { Metadata } from "next";
import Link from "next/link";
import { Breakable, PortalHeader, PortalMain, DataTable } from "@/components/portal";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { listPendingVerifications } from "@/lib/organisations/review-verifications";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../../developers/forms";
import { formatAge } from "../format";

export const metadata: Metadata = { title: "Organisation verifications", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function OrganisationQueuePage() {
  const account = await requireRole(["reviewer", "admin"], "/review/organisations");
  const rows = await listPendingVerifications(await getDb());
  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-8">
        <p className="text-sm"><Link className="underline" href="/review">← Review queue</Link></p>
        <section>
          <h1 className="text-2xl font-semibold">Organisation verifications <span className="text-slate-500" data-testid="org-queue-total">({rows.length})</span></h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">
            Accounts asking to be a verified organisation, oldest first. Approval makes the account&apos;s public name the entity&apos;s legal name, locked; check the register&apos;s answer, the documents and an independent channel first.
          </p>
        </section>
        <DataTable testId="org-queue" head={["Application", "LEI", "Register", "Applicant", "Customer", "Submitted", "Age"]}>
            {rows.length === 0 && <tr><td colSpan={7} className="py-4 text-slate-600" data-testid="org-queue-empty">Nothing is waiting.</td></tr>}
            {rows.map((r) => (
              <tr key={r.id} className="border-b border-slate-100 align-top" data-testid="org-queue-row" data-id={r.id}>
                <td data-label="Application" className="whitespace-nowrap py-2"><Link className="font-mono underline" href={`/review/organisations/${r.id}`}>{r.id}</Link></td>
                <td data-label="LEI" className="font-mono">{r.lei ?? <span className="font-sans text-slate-500">none (documents)</span>}</td>
                <td data-label="Register" className="[overflow-wrap:anywhere]">
                  {!r.register ? "—" : r.register.result === "found" ? <>{r.register.legal_name} <span className="text-slate-500">({r.register.registration_status}/{r.register.entity_status})</span></> : r.register.result.replace("_", " ")}
                </td>
                <td data-label="Applicant" className="[overflow-wrap:anywhere]">{r.applicant.name}, {r.applicant.role}</td>
                <td data-label="Customer"><Breakable text={r.accountEmail} />{r.accountId === account.id && <span className="ml-1 text-amber-700">(your account)</span>}</td>
                <td data-label="Submitted">{formatUtc(r.createdAt)}</td>
                <td data-label="Age" className="whitespace-nowrap">{formatAge(r.sla.ageMs)}{r.sla.overdue && <span className="ml-1 rounded bg-red-100 px-1 text-red-800">overdue</span>}</td>
              </tr>
            ))}
        </DataTable>
      </PortalMain>
    </>
  );
}
