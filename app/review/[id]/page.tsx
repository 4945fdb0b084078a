import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PortalHeader, PortalMain, DataTable } from "@/components/portal";
import { StatusBadge } from "@/components/status-badge";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { effectiveStatus, isIssued } from "@/lib/record-model/effective-status";
import { actorKind } from "@/lib/public/record/public-view";
import type { StaffOperation } from "@/lib/staff/staff-action";
import { recordUrls } from "@/lib/record-model/urls";
import { getSubmission } from "@/lib/reviews/review-queue";
import { DocumentsInline } from "@/components/documents-inline";
import { filesOfAccount } from "@/lib/files/get-file";
import { submissionDocuments } from "@/lib/records/check-claim";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../../developers/forms";
import { EvidenceView } from "../evidence";
import { DecisionForms, RerunForm } from "../forms";
import { StaffActionForm } from "../staff-forms";
import { formatAge } from "../format";
import { RiskPanel } from "../risk-panel";

export const metadata: Metadata = { title: "Review record", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export default async function ReviewPage({ params }: Props) {
  const { id } = await params;
  const account = await requireRole(["reviewer", "admin"], "/review");
  const db = await getDb();
  const s = await getSubmission(db, id);
  if (!s) notFound();
  const { row } = s;
  const pending = row.status === "pending_review";
  // An issued record (not a submission): staff may suspend, reinstate or revoke it.
  const standing = isIssued(row.status) ? effectiveStatus(row).status : null;
  const staffOps: StaffOperation[] = standing === "active" ? ["suspend", "revoke"] : standing === "suspended" ? ["reinstate", "revoke"] : [];
  const lastMove = s.history.at(-1);
  const own = row.accountId === account.id;
  const { certificate_url: certificateUrl } = recordUrls(row.id);
  const submitted = (row.evidencePrivate as { submitted?: unknown } | null)?.submitted;
  const attached = submissionDocuments(row.evidencePrivate);
  const kept = await filesOfAccount(db, row.accountId, attached.map((d) => d.id));
  const documents = kept.map((f) => ({ id: f.id, src: `/review/${row.id}/files/${f.id}`, filename: f.filename, contentType: f.contentType, sizeBytes: f.sizeBytes, sha256: f.sha256 }));

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-8">
        <p className="text-sm"><Link className="underline" href="/review">← Review queue</Link></p>
        <RiskPanel
          risk={s.risk} accountId={row.accountId} what={pending ? "submission" : "record"}
          firstApproval={s.firstApproval && { by: s.firstApproval.email ?? "the operator", at: s.firstApproval.at, mine: s.firstApproval.staffAccountId === account.id }}
        />
        <section>
          <h1 className="font-mono text-xl font-semibold" data-testid="submission-id">{row.id}</h1>
          <div className="mt-2" data-testid="submission-status"><StatusBadge status={row.status} /></div>
          <dl className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-500">Claim type</dt><dd data-testid="claim-type">{row.claimType}</dd>
            <dt className="text-slate-500">Subject</dt><dd data-testid="subject" data-field="subject">{row.subject}</dd>
            <dt className="text-slate-500">Claim</dt><dd data-field="claim">{row.claim}</dd>
            <dt className="text-slate-500">Environment</dt><dd>{row.environment}</dd>
            {pending
              ? <><dt className="text-slate-500">Issues at</dt><dd>{row.evidenceLevel} (once confirmed)</dd></>
              : <><dt className="text-slate-500">Evidence level</dt><dd>{row.evidenceLevel ?? "—"}</dd></>}
            <dt className="text-slate-500">Visibility</dt><dd>{row.visibility}</dd>
            <dt className="text-slate-500">Submitted</dt><dd>{formatUtc(row.createdAt)}</dd>
            {pending && (
              <>
                <dt className="text-slate-500">Waiting</dt>
                <dd data-testid="sla">
                  {formatAge(s.sla.ageMs)} {s.sla.overdue ? <span className="rounded bg-red-100 px-1 text-red-800">overdue</span> : <span className="text-slate-500">(due {formatUtc(s.sla.dueAt)})</span>}
                </dd>
              </>
            )}
            {row.reviewReason && <><dt className="text-slate-500">{pending ? "Why it waits" : "Reason given"}</dt><dd data-testid="review-reason">{row.reviewReason}</dd></>}
            {row.status !== "pending_review" && row.status !== "rejected" && (
              <><dt className="text-slate-500">Certificate</dt><dd><a className="underline" href={certificateUrl} data-testid="certificate-link">{certificateUrl}</a></dd></>
            )}
          </dl>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Customer</h2>
          <dl className="mt-2 grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] gap-x-6 gap-y-2 text-sm" data-testid="customer">
            <dt className="text-slate-500">Email</dt><dd>{s.account.email}{own && <span className="ml-2 text-amber-700">(your own account)</span>}</dd>
            <dt className="text-slate-500">Account</dt><dd><Link className="underline" href={`/review/accounts/${s.account.id}`}><code>{s.account.id}</code></Link>{s.account.suspendedAt && <span className="ml-2 rounded bg-red-100 px-1 text-red-800" data-testid="account-suspended">suspended</span>}</dd>
            <dt className="text-slate-500">Name</dt><dd data-testid="account-name">{s.account.name ?? <span className="text-slate-500">unnamed</span>}</dd>
            <dt className="text-slate-500">Plan</dt><dd>{s.account.plan}</dd>
            <dt className="text-slate-500">Email confirmed</dt><dd>{s.account.emailConfirmedAt ? formatUtc(s.account.emailConfirmedAt) : "no"}</dd>
            <dt className="text-slate-500">Customer since</dt><dd>{formatUtc(s.account.createdAt)}</dd>
          </dl>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Evidence</h2>
          <div className="mt-2"><EvidenceView claimType={row.claimType} evidence={row.evidencePublic} submitted={submitted} /></div>
        </section>

        {attached.length > 0 && <DocumentsInline documents={documents} missing={attached.length - documents.length} />}

        {!pending && (row.status === "rejected" || s.decisions.some((d) => d.decision === "approve" || d.decision === "reject")) && (
          <p className="rounded border border-slate-300 bg-slate-50 px-4 py-3 text-sm" data-testid="decided">
            Decided: this submission is <strong>{row.status}</strong>
            {s.decisions.length > 0 && <> ({s.decisions.at(-1)!.decision} by {s.decisions.at(-1)!.reviewerEmail}, {formatUtc(s.decisions.at(-1)!.at)})</>}.{" "}
            <Link className="underline" href="/review">Back to the queue</Link>
          </p>
        )}

        {pending && (
          <section>
            <h2 className="text-lg font-semibold">Decision</h2>
            {s.approvalChecks.length > 0 && (
              <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-emerald-900" data-testid="approval-checks">
                {s.approvalChecks.map((c, i) => <li key={i}>{c}</li>)}
              </ul>
            )}
            {s.canRerun && (
              <div className="mt-2">
                <p className="mb-2 text-sm text-slate-600">
                  {s.rerunChecksOnly
                    ? "Part of this submission could not be checked by the service when it was made (its source did not answer): re-run the check to ask again. You still decide the rest."
                    : "This claim type has a connector: if its source answers now, the record issues without a reviewer."}
                </p>
                <RerunForm id={row.id} />
              </div>
            )}
            {own
              ? <p className="mt-3 rounded border border-amber-300 bg-amber-50 px-4 py-3 text-sm" data-testid="own-submission">This submission belongs to your own account: another reviewer must decide it.</p>
              : <DecisionForms id={row.id} checklist={s.checklist} refusal={s.approvalRefusal} offerWithoutSnapshot={s.snapshotAtApproval} />}
          </section>
        )}

        {standing && (
          <section data-testid="staff-actions">
            <h2 className="text-lg font-semibold">Standing</h2>
            <p className="mt-2 text-sm">This record is <strong data-testid="record-standing">{standing}</strong>.</p>
            {lastMove && (
              <p className="mt-1 text-sm text-slate-600" data-testid="last-move">
                Last change: {lastMove.status} by {actorKind(lastMove.by)}, {formatUtc(lastMove.at)}{lastMove.reason ? ` — ${lastMove.reason}` : ""}
              </p>
            )}
            {own && staffOps.length > 0
              ? <p className="mt-3 rounded border border-amber-300 bg-amber-50 px-4 py-3 text-sm" data-testid="own-record">This record belongs to your own account: another staff member must act on it.</p>
              : staffOps.length > 0
              ? <>
                  <p className="mt-2 text-sm text-slate-600">
                    Act for Proof Records: the reason is shown on the certificate, the owner is told by webhook, and the owner
                    cannot lift a staff suspension.
                  </p>
                  <StaffActionForm id={row.id} operations={staffOps} />
                </>
              : <p className="mt-2 text-sm text-slate-600">A {standing} record cannot be moved any more.</p>}
          </section>
        )}

        <section>
          <h2 className="text-lg font-semibold">History</h2>
          {s.historyBefore !== null && (
            <p className="mt-1 text-sm text-slate-600" data-testid="history-count">
              The latest {s.history.length} of {s.historyCount} entries;{" "}
              <Link className="underline" href={`${certificateUrl}/history?before=${s.historyBefore}`}>older entries</Link> are on the certificate&apos;s history page.
            </p>
          )}
          <ol className="mt-2 space-y-1 text-sm" data-testid="history">
            {s.history.map((h) => (
              <li key={h.seq}>{formatUtc(h.at)} — <strong>{h.status}</strong> by {actorKind(h.by)}{h.reason ? `: ${h.reason}` : ""}</li>
            ))}
          </ol>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Audit log of this {pending || row.status === "rejected" ? "submission" : "record"}</h2>
          <DecisionTable rows={s.decisions} testId="decisions" />
        </section>

        <section>
          <h2 className="text-lg font-semibold [overflow-wrap:anywhere]">Earlier decisions on {row.subject} ({row.claimType})</h2>
          <DecisionTable rows={s.earlier} testId="earlier-decisions" showRecord />
        </section>
      </PortalMain>
    </>
  );
}

type DecisionRow = { recordId: string; decision: string; checklist: string[]; notes: string | null; reason: string | null; at: Date; reviewerEmail: string };

function DecisionTable({ rows, testId, showRecord }: { rows: DecisionRow[]; testId: string; showRecord?: boolean }) {
  if (rows.length === 0) return <p className="mt-2 text-sm text-slate-600" data-testid={testId}>None.</p>;
  return (
    <DataTable className="mt-2" testId={testId} head={[...(showRecord ? ["Record"] : []), "When", "Decision", "By", "Checklist", "Reason / notes"]}>
      {rows.map((d, i) => (
        <tr key={i} className="border-b border-slate-100 align-top">
          {showRecord && <td data-label="Record"><Link className="font-mono underline" href={`/review/${d.recordId}`}>{d.recordId}</Link></td>}
          <td data-label="When" className="whitespace-nowrap py-2">{formatUtc(d.at)}</td>
          <td data-label="Decision">{d.decision}</td>
          <td data-label="By" className="[overflow-wrap:anywhere]">{d.reviewerEmail}</td>
          <td data-label="Checklist">{d.checklist.join(", ") || "—"}</td>
          <td data-label="Reason / notes">{[d.reason, d.notes].filter(Boolean).join(" — ") || "—"}</td>
        </tr>
      ))}
    </DataTable>
  );
}
