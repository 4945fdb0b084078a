import { DocumentsInline } from "@/components/documents-inline";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PortalHeader, PortalMain, DataTable } from "@/components/portal";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import type { RegisterAnswer } from "@/lib/organisations/register-answer";
import { standsInRegister } from "@/lib/organisations/register-answer";
import { getVerificationForReview } from "@/lib/organisations/review-verifications";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../../../developers/forms";
import { formatAge } from "../../format";
import { OrganisationDecisionForms } from "../forms";
import { RiskPanel } from "../../risk-panel";

export const metadata: Metadata = { title: "Organisation verification", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };
const dl = "mt-2 grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] gap-x-6 gap-y-2 text-sm";

export default async function OrganisationReviewPage({ params }: Props) {
  const { id } = await params;
  const account = await requireRole(["reviewer", "admin"], "/review/organisations");
  const v = await getVerificationForReview(await getDb(), id);
  if (!v) notFound();
  const { row } = v;
  const pending = row.status === "pending";
  const own = row.accountId === account.id;

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-8">
        <p className="text-sm"><Link className="underline" href="/review/organisations">← Organisation verifications</Link></p>
        <RiskPanel
          risk={v.risk} accountId={row.accountId} what="application"
          firstApproval={v.firstApproval && { by: v.firstApproval.email ?? "the operator", at: v.firstApproval.at, mine: v.firstApproval.staffAccountId === account.id }}
        />
        <section>
          <h1 className="font-mono text-xl font-semibold [overflow-wrap:anywhere]" data-testid="application-id">{row.id}</h1>
          <dl className={dl}>
            <dt className="text-slate-500">Status</dt><dd data-testid="application-status"><strong>{row.status}</strong></dd>
            <dt className="text-slate-500">LEI</dt><dd className="font-mono">{row.lei ?? <span className="font-sans">none — the legal name comes from the documents (basis: documents)</span>}</dd>
            <dt className="text-slate-500">Applicant</dt><dd data-testid="applicant">{row.applicant.name}, {row.applicant.role} — {row.applicant.email}</dd>
            <dt className="text-slate-500">Submitted</dt><dd>{formatUtc(row.createdAt)}{pending && <> ({formatAge(v.sla.ageMs)} ago{v.sla.overdue && <span className="ml-1 rounded bg-red-100 px-1 text-red-800">overdue</span>})</>}</dd>
            {!pending && <><dt className="text-slate-500">Decided</dt><dd data-testid="decided">{row.status} {v.decidedBy && <>by {v.decidedBy}</>} {formatUtc(row.decidedAt)}{row.legalName && <> — legal name <strong>{row.legalName}</strong></>}{row.reason && <> — reason: {row.reason}</>}</dd></>}
          </dl>
        </section>

        {v.holder && (
          <div role="alert" className="rounded border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900" data-testid="lei-holder-warning">
            <strong>This LEI is already verified for another account:</strong> {v.holder.legalName} — account <code>{v.holder.accountId}</code>
            {v.holder.email && <> ({v.holder.email})</>}, status {v.holder.status}. One LEI has one verified account at a time: approval is refused until staff remove that verification
            (<code>npm run admin -- organisation remove --account {v.holder.accountId}</code>).
          </div>
        )}

        {v.namesakes.length > 0 && (
          <section role="alert" className="rounded border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="namesakes">
            <h2 className="text-base font-semibold">Namesakes: {v.namesakes.length === 1 ? "another organisation has" : `${v.namesakes.length} other organisations have`} this legal name</h2>
            <p className="mt-1">
              A name is not an identity. Approving gives two accounts the same verified name: a payer who asks <code>/check</code> by
              name alone then gets &ldquo;more than one verified organisation has this name&rdquo; and must use the LEI or the website. Make
              sure this is a different legal entity (LEI, jurisdiction), not the same one applying again.
            </p>
            <DataTable className="mt-2" head={["Legal name", "LEI", "Jurisdiction", "Basis", "Status", "Account", "Verified"]}>
              {v.namesakes.map((n) => (
                <tr key={n.accountId} className="border-b border-amber-200" data-testid="namesake">
                  <td data-label="Legal name" className="py-2 font-semibold">{n.legalName}</td>
                  <td data-label="LEI" className="font-mono">{n.lei ?? "none"}</td>
                  <td data-label="Jurisdiction">{n.jurisdiction ?? "—"}</td>
                  <td data-label="Basis">{n.basis === "lei_register" ? "LEI register" : "documents"}</td>
                  <td data-label="Status">{n.status}</td>
                  <td data-label="Account"><code>{n.accountId}</code></td>
                  <td data-label="Verified">{formatUtc(n.verifiedAt)}</td>
                </tr>
              ))}
            </DataTable>
          </section>
        )}

        <section>
          <h2 className="text-lg font-semibold">LEI register</h2>
          <RegisterView lei={row.lei} answer={v.register} />
        </section>

        <section>
          <h2 className="text-lg font-semibold">Customer</h2>
          <dl className={dl} data-testid="customer">
            <dt className="text-slate-500">Email</dt><dd>{v.account.email}{own && <span className="ml-2 text-amber-700">(your own account)</span>}</dd>
            <dt className="text-slate-500">Account</dt><dd><code>{v.account.id}</code></dd>
            <dt className="text-slate-500">Name now</dt><dd>{v.profile.name ?? "—"} {v.profile.name_verified ? <span className="text-emerald-700">(verified organisation)</span> : <span className="text-slate-500">(self-declared)</span>}</dd>
            <dt className="text-slate-500">Proved domains</dt><dd>{v.profile.verified_domains.join(", ") || "none"}</dd>
            <dt className="text-slate-500">Email confirmed</dt><dd>{v.account.emailConfirmedAt ? formatUtc(v.account.emailConfirmedAt) : "no"}</dd>
            <dt className="text-slate-500">Customer since</dt><dd>{formatUtc(v.account.createdAt)}</dd>
          </dl>
        </section>

        <DocumentsInline
          documents={v.documents.map((d) => ({ id: d.id, src: `/review/organisations/${row.id}/files/${d.id}`, filename: d.filename, contentType: d.contentType, sizeBytes: d.sizeBytes, sha256: d.sha256 }))}
          missing={row.documents.length - v.documents.length}
        />

        {pending && (
          <section>
            <h2 className="text-lg font-semibold">Decision</h2>
            {own
              ? <p className="mt-3 rounded border border-amber-300 bg-amber-50 px-4 py-3 text-sm" data-testid="own-submission">This application belongs to your own account: another reviewer must decide it.</p>
              : <OrganisationDecisionForms id={row.id} checklist={v.checklist} domains={v.profile.verified_domains} needsLegalName={row.lei === null}
                  registerName={v.register?.result === "found" ? v.register.legal_name : null} />}
          </section>
        )}

        <section>
          <h2 className="text-lg font-semibold">Earlier applications of this account</h2>
          {v.earlier.length === 0 ? <p className="mt-2 text-sm text-slate-600">None.</p> : (
            <DataTable className="mt-2" head={["Application", "LEI", "Status", "Submitted", "Reason"]}>
                {v.earlier.map((e) => (
                  <tr key={e.id} className="border-b border-slate-100">
                    <td data-label="Application" className="py-2"><Link className="font-mono underline" href={`/review/organisations/${e.id}`}>{e.id}</Link></td>
                    <td data-label="LEI" className="font-mono">{e.lei ?? "—"}</td>
                    <td data-label="Status">{e.status}</td>
                    <td data-label="Submitted">{formatUtc(e.createdAt)}</td>
                    <td data-label="Reason">{e.reason ?? "—"}</td>
                  </tr>
                ))}
            </DataTable>
          )}
        </section>
      </PortalMain>
    </>
  );
}

function RegisterView({ lei, answer }: { lei: string | null; answer: RegisterAnswer | null }) {
  if (!lei || !answer) return <p className="mt-2 text-sm text-slate-600" data-testid="register">No LEI: confirm the legal or registered trading name from the documents.</p>;
  if (answer.result === "unreachable") {
    return <p className="mt-2 rounded border border-amber-300 bg-amber-50 px-4 py-3 text-sm" data-testid="register">The register could not be reached when the application was made ({answer.reason}). It is asked again at approval; check <a className="underline" href={`https://search.gleif.org/#/record/${lei}`} rel="noopener noreferrer" target="_blank">search.gleif.org</a> yourself.</p>;
  }
  if (answer.result === "not_found") return <p className="mt-2 rounded border border-red-300 bg-red-50 px-4 py-3 text-sm" data-testid="register">The register has no record for {lei}: {answer.reason}</p>;
  const ok = standsInRegister(answer);
  return (
    <dl className={dl} data-testid="register">
      <dt className="text-slate-500">Legal name</dt><dd data-testid="register-legal-name"><strong>{answer.legal_name}</strong></dd>
      <dt className="text-slate-500">Jurisdiction</dt><dd>{answer.jurisdiction ?? "—"}</dd>
      <dt className="text-slate-500">Registration</dt><dd className={answer.registration_status === "ISSUED" ? "text-emerald-700" : "text-red-700"}>{answer.registration_status}</dd>
      <dt className="text-slate-500">Entity</dt><dd className={answer.entity_status === "ACTIVE" ? "text-emerald-700" : "text-red-700"}>{answer.entity_status}</dd>
      <dt className="text-slate-500">Next renewal</dt><dd>{answer.next_renewal_date ?? "—"}</dd>
      <dt className="text-slate-500">Asked</dt><dd>{formatUtc(answer.checked_at)} — <a className="underline" href={`https://search.gleif.org/#/record/${lei}`} rel="noopener noreferrer" target="_blank">search.gleif.org</a></dd>
      {!ok && <><dt className="text-slate-500">Verdict</dt><dd className="text-red-700">Not ISSUED/ACTIVE: cannot be approved.</dd></>}
    </dl>
  );
}
