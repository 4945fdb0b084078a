import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { claimUi } from "@/components/claims";
import { CopyButton } from "@/components/copy-button";
import { EmbedPanel } from "@/components/embed-panel";
import { PortalHeader, PortalMain, DataTable } from "@/components/portal";
import { StatusBadge } from "@/components/status-badge";
import type { Environment } from "@/lib/accounts/types";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { embedScript, versionedEmbedPath } from "@/lib/public/embed/embed-script";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { TRANSITIONS } from "@/lib/records/change-lifecycle";
import { getRecordOrThrow } from "@/lib/record-model/get-record";
import { submissionDocuments } from "@/lib/records/check-claim";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { loadPublicView } from "@/lib/public/record/public-view";
import { serializeRecord } from "@/lib/public/record/serialize-record";
import { formatUtc } from "@/lib/format/dates";
import { claimTypeLabel } from "@/lib/claims/form-spec";
import { EVIDENCE_LEVEL_TEXT } from "@/lib/record-model/evidence-level-text";
import { SignOutButton } from "../../developers/forms";
import { LifecycleForms } from "../forms";

const levelTitle = (level: string | undefined) => (level ? (EVIDENCE_LEVEL_TEXT[level]?.title ?? level) : "—");

export const metadata: Metadata = { title: "Record", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export default async function RecordPage({ params }: Props) {
  const { id } = await params;
  const account = await requireAccount(RECORD_ID_RE.test(id) ? `/records/${id}` : "/records");
  const db = await getDb();
  // The owner's view: only this account's records, in either environment; anything else is 404.
  let row = null;
  for (const env of ["sandbox", "live"] as Environment[]) {
    try {
      row = await getRecordOrThrow(db, portalAuth(account, env), id);
      break;
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "record_not_found") throw e;
    }
  }
  if (!row) notFound();
  const view = await loadPublicView(db, row);
  const rec = serializeRecord(view);
  // What the owner attached for the reviewer (names only: the files stay private).
  const attached = submissionDocuments(row.evidencePrivate);
  const operations = Object.keys(TRANSITIONS[rec.status] ?? {});
  // What the record's claim type shows its owner beyond the common fields (e.g. an agent's mandate and principal link).
  const OwnerPanel = claimUi(rec.claim_type)?.OwnerPanel;
  const embed = embedScript();

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-8">
        <p className="text-sm"><Link className="underline" href={`/records?environment=${rec.environment}`}>← Records</Link></p>
        <section>
          <h1 className="font-mono text-xl font-semibold" data-testid="record-id">{rec.verification_id}</h1>
          <div className="mt-2" data-testid="record-status"><StatusBadge status={rec.status} /></div>
          <dl className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-500">Subject</dt><dd>{rec.subject}</dd>
            <dt className="text-slate-500">Kind of record</dt>
            <dd data-testid="record-kind">{claimTypeLabel(rec.claim_type)} <span className="font-mono text-xs text-slate-500" title="The claim type, as the API names it">{rec.claim_type}</span></dd>
            <dt className="text-slate-500">Claim</dt><dd>{rec.claim}</dd>
            <dt className="text-slate-500">Environment</dt><dd>{rec.environment}</dd>
            <dt className="text-slate-500">Evidence level</dt><dd data-testid="record-level">{rec.evidence_level ? levelTitle(rec.evidence_level) : rec.status === "rejected" ? "None (rejected)" : `None until issued (${levelTitle(rec.review?.evidence_level)} once a reviewer confirms)`}</dd>
            <dt className="text-slate-500">Visibility</dt><dd>{rec.visibility}</dd>
            <dt className="text-slate-500">Issued</dt><dd>{formatUtc(rec.lifecycle.issued_at, "seconds")}</dd>
            <dt className="text-slate-500">Expires</dt><dd>{formatUtc(rec.lifecycle.expires_at, "seconds")}</dd>
            {rec.superseded_by && <><dt className="text-slate-500">Superseded by</dt><dd><Link className="font-mono underline" href={`/records/${rec.superseded_by}`}>{rec.superseded_by}</Link></dd></>}
            {rec.review && (
              <>
                <dt className="text-slate-500">{rec.status === "rejected" ? "Rejected by a reviewer" : "Waiting for a reviewer"}</dt>
                <dd data-testid="review-outcome">{rec.review.reason ?? "—"}</dd>
              </>
            )}
            {attached.length > 0 && (
              <>
                <dt className="text-slate-500">Documents for the reviewer</dt>
                <dd data-testid="record-documents">
                  <ul>{attached.map((d) => <li key={d.id}>{d.filename} <span className="text-slate-500">({Math.max(1, Math.round(d.size_bytes / 1024))} KiB)</span></li>)}</ul>
                  <span className="text-xs text-slate-600">Only you and Proof Records reviewers can open them; never published, deleted 90 days after the decision.</span>
                </dd>
              </>
            )}
            <dt className="text-slate-500">Certificate</dt>
            <dd>
              {rec.certificate_url ? (
                <span className="flex flex-wrap items-center gap-3">
                  <Link id="certificate-url" className="break-all underline" href={`/r/${rec.verification_id}`} data-testid="certificate-link">{rec.certificate_url}</Link>
                  <CopyButton value={rec.certificate_url} label="certificate link" targetId="certificate-url" />
                </span>
              ) : "not issued"}
            </dd>
          </dl>
        </section>

        {OwnerPanel && <OwnerPanel record={rec} auth={portalAuth(account, rec.environment)} />}

        {rec.certificate_url && (
          <EmbedPanel
            id={rec.verification_id} baseUrl={getEnv().publicBaseUrl} environment={rec.environment} websites={rec.websites}
            coversHosts={view.coversHosts} verifiedOrganisation={view.trust.speaker === "verified_organisation"}
            versionedPath={embed ? versionedEmbedPath(embed.version) : null} integrity={embed?.integrity ?? null}
          />
        )}

        <section>
          <h2 className="text-lg font-semibold">History</h2>
          <DataTable className="mt-3" testId="history" head={["When", "Status", "By", "Reason"]}>
            {rec.lifecycle.history.map((h, i) => (
              <tr key={i} className="border-b border-slate-100" data-testid="history-row">
                <td data-label="When" className="whitespace-nowrap py-2">{formatUtc(h.at, "seconds")}</td><td data-label="Status">{h.status}</td>
                <td data-label="By">{h.by}</td><td data-label="Reason">{h.reason}</td>
              </tr>
            ))}
          </DataTable>
          {rec.lifecycle.history_before !== null && rec.certificate_url && (
            <p className="mt-2 text-sm" data-testid="history-older">
              The latest {rec.lifecycle.history.length} of {rec.lifecycle.history_count} entries.{" "}
              <a className="underline" href={`/r/${encodeURIComponent(rec.verification_id)}/history?before=${rec.lifecycle.history_before}`}>Older entries</a>
            </p>
          )}
        </section>

        <section>
          <h2 className="text-lg font-semibold">Lifecycle</h2>
          <LifecycleForms id={rec.verification_id} environment={rec.environment} operations={operations} />
        </section>
      </PortalMain>
    </>
  );
}
