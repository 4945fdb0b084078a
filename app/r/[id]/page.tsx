import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import QRCode from "qrcode";
import { cache } from "react";
import { claimUi } from "@/components/claims";
import { SubjectName } from "@/components/domain-name";
import { EvidenceList } from "@/components/evidence-list";
import { HistoryList, OlderEntriesLink } from "@/components/history-list";
import { LogProof } from "@/components/log-proof";
import { ProofScope } from "@/components/proof-scope";
import { PublicAbout, PublicFooter, PublicHeader } from "@/components/public-shell";
import { StatusBadge } from "@/components/status-badge";
import { getDb } from "@/lib/db/client";
import { foreignArrival, type ForeignArrival } from "@/lib/public/embed/sightings/arrived-from";
import { getEnv } from "@/lib/env";
import { subjectDisplayText } from "@/lib/format/domain-display";
import { WithSpeaker } from "@/components/speaker-name";
import { levelHeadline, speakerName, STATUS_TEXT } from "@/lib/record-model/evidence-level-text";
import { getCertificate, isIndexable } from "@/lib/public/record/get-certificate";
import { recordUrls } from "@/lib/record-model/urls";
import { formatUtc } from "@/lib/format/dates";
import { ReportForm } from "./report-form";
import { Checks, Speaker } from "./speaker";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

/** One read of the certificate per request, shared by the page and its head (React's request cache). */
const certificateOf = cache(async (id: string) => getCertificate(await getDb(), id));

/** Which certificates may be indexed is decided from the trust decision (lib/public/record/get-certificate.ts isIndexable). */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const certificate = await certificateOf(id);
  if (!certificate) return { title: "Record not found", robots: { index: false } };
  const { row } = certificate.view;
  return { title: `${row.id} — ${subjectDisplayText(row.subject)}`, robots: isIndexable(certificate.view) ? undefined : { index: false, follow: false } };
}

const TONE = {
  verified: { box: "border-emerald-600 bg-emerald-50", title: "text-emerald-900", mark: "✓ " },
  // Checked, but by an account whose name nobody verified: amber, never green, no check mark (issue 38; docs/embed.md).
  checked: { box: "border-amber-500 bg-amber-50", title: "text-amber-950", mark: "" },
  lapsed: { box: "border-slate-400 bg-slate-50", title: "text-slate-900", mark: "" },
  stated: { box: "border-amber-500 bg-amber-50", title: "text-amber-950", mark: "" },
  sandbox: { box: "border-violet-500 bg-violet-50", title: "text-violet-950", mark: "" },
} as const;

export default async function CertificatePage({ params }: Props) {
  const { id } = await params;
  const certificate = await certificateOf(id);
  if (!certificate) notFound();
  const { view, logEntry, replacedBy, actedBy } = certificate;
  const { row, status, changedAt, verified, history, links, account } = view;
  const ui = claimUi(row.claimType); // the type's UI piece, resolved once for the whole page
  const Facts = ui?.Facts;
  const urls = recordUrls(row.id);
  const base = getEnv().publicBaseUrl;
  const speaker = speakerName(account);
  const headline = levelHeadline({ level: row.evidenceLevel, account, environment: row.environment, verified });
  const tone = TONE[headline.tone];
  const statusText = STATUS_TEXT[status]!;
  const qrSvg = await QRCode.toString(urls.certificate_url, { type: "svg", margin: 1 });
  // The page is rendered per request already (force-dynamic): reading Referer costs nothing more.
  const arrival = await foreignArrival(await getDb(), view, (await headers()).get("referer"), new URL(base).origin);

  return (
    <>
      <PublicHeader />
      <main className="mx-auto max-w-3xl px-4 py-6 sm:py-10" data-status={status} data-tone={headline.tone}>
        {arrival && <ArrivedFrom arrival={arrival} />}
        {row.environment === "sandbox" && (
          <div data-testid="sandbox-banner" className="mb-4 rounded-lg border-2 border-dashed border-violet-500 bg-violet-50 p-4 text-violet-900">
            <strong>Sandbox — not verified.</strong> This is a private test record. It proves nothing and must not be relied on.
          </div>
        )}
        {status !== "active" && (
          <div data-testid="status-alert" role="alert" className={`mb-4 rounded-lg p-5 text-lg font-semibold ${status === "suspended" ? "bg-amber-500 text-black" : status === "revoked" ? "bg-red-700 text-white" : "bg-slate-700 text-white"}`}>
            {statusText.label.toUpperCase()}: {statusText.explain}
            <span className="block text-base font-normal" data-testid="status-when">{statusText.label} on {formatUtc(actedBy?.at ?? changedAt)}.</span>
            {actedBy && <span className="block text-base font-normal" data-testid="status-actor">{actedBy.text}</span>}
            {replacedBy && (
              <span className="block text-base font-normal">
                {replacedBy.id
                  ? <>Replaced by <a className="underline" href={`/r/${replacedBy.id}`}>{replacedBy.id}</a>.</>
                  : "Replaced by a newer record that is not public."}
              </span>
            )}
          </div>
        )}

        <section className={`rounded-xl border-l-8 p-5 shadow-sm ring-1 ring-slate-200 ${tone.box}`} data-testid="verdict">
          <p className="text-xs uppercase tracking-wide text-slate-500">Proof record {row.id}</p>
          <h1 className={`mt-1 text-2xl font-bold leading-tight sm:text-3xl ${tone.title}`} data-testid="level-headline">
            {tone.mark && <span aria-hidden>{tone.mark}</span>}<WithSpeaker text={headline.title} account={account} />
          </h1>
          <p className="mt-2 text-slate-700" data-testid="evidence-explained"><WithSpeaker text={headline.explain} account={account} /></p>

          <div className="mt-4 flex flex-wrap items-center gap-3">
            <StatusBadge status={status} unchecked={headline.tone !== "verified"} />
            <span className={`text-sm font-semibold ${headline.tone === "verified" ? "text-emerald-800" : "text-slate-600"}`} data-testid="verified-mark">
              {headline.tone === "verified" ? "Verified" : verified ? "Checked — by an account whose name is not verified" : "Not verified"}
            </span>
            {/* Only an active record has a "valid until"; a revoked one was never valid until its old expiry date. */}
            {status === "active"
              ? row.expiresAt && <span className="text-sm text-slate-600">valid until {formatUtc(row.expiresAt)}</span>
              : <span className="text-sm text-slate-600">{statusText.label.toLowerCase()} since {formatUtc(actedBy?.at ?? changedAt)}</span>}
          </div>

          <Speaker account={account} trust={view.trust} />
        </section>

        <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-sm text-slate-500 [overflow-wrap:anywhere]">The statement, about <span className="font-semibold text-slate-900" data-testid="subject"><SubjectName subject={row.subject} /></span></h2>
          <blockquote className="mt-2 border-l-4 border-slate-300 pl-3 text-lg whitespace-pre-wrap break-words">{row.claim}</blockquote>
          <p className="mt-2 text-xs text-slate-500">Kind of record: {row.claimType.replaceAll("_", " ")}</p>
        </section>

        <Checks checks={view.checks} />
        <ProofScope ui={ui} evidence={row.evidencePublic ?? {}} level={row.evidenceLevel} speaker={speaker} />
        {Facts && <Facts fields={view.fields} />}

        {links.length > 0 && (
          <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="linked-records">
            <h2 className="font-semibold">Records this one rests on</h2>
            <ul className="mt-2 space-y-1 text-sm">
              {links.map((l) => (
                <li key={l.role} data-standing={l.standing}>
                  <span className="text-slate-500">{l.role.replaceAll("_", " ")}:</span>{" "}
                  {l.record ? <a className="underline" href={l.record.certificate_url}><SubjectName subject={l.record.subject} /> ({l.record.verification_id})</a> : "a record that is not public"}
                  {" — "}
                  <span className={l.standing === "active" ? "text-emerald-700" : "font-semibold text-red-700"}>
                    {l.standing === "active" ? "active" : `no longer active (${STATUS_TEXT[l.status]?.label.toLowerCase() ?? l.status})`}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}

        <details className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" open={row.evidenceLevel !== "participant_attested"}>
          <summary className="cursor-pointer font-semibold">Evidence kept with the record</summary>
          <div className="mt-3"><EvidenceList evidence={row.evidencePublic ?? {}} labels={ui?.labels} /></div>
        </details>

        <section className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto]">
          <div className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 className="font-semibold">Validity</h2>
            <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-500">Status</dt><dd>{statusText.label} since {formatUtc(changedAt)}</dd>
              <dt className="text-slate-500">Issued</dt><dd>{formatUtc(row.issuedAt)}</dd>
              <dt className="text-slate-500">{status === "active" || status === "expired" ? "Expires" : "Was to expire"}</dt><dd>{formatUtc(row.expiresAt)}</dd>
              <dt className="text-slate-500">Environment</dt><dd>{row.environment === "live" ? "live" : "sandbox (test)"}</dd>
            </dl>
          </div>
          <figure className="justify-self-center rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200">
            <div className="h-36 w-36" dangerouslySetInnerHTML={{ __html: qrSvg }} />
            <figcaption className="mt-1 text-center text-xs text-slate-500">
              <a className="underline" href={urls.qr_url}>SVG</a> · <a className="underline" href={`${urls.qr_url}?format=png`}>PNG</a>
            </figcaption>
          </figure>
        </section>

        <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <h2 className="font-semibold">History</h2>
          {view.historyBefore !== null && (
            <p className="mt-1 text-sm text-slate-600" data-testid="history-count">
              The latest {history.length} of {view.historyCount} entries.
            </p>
          )}
          <HistoryList entries={history} />
          <OlderEntriesLink recordId={row.id} before={view.historyBefore} />
        </section>

        <section className="mt-4 rounded-lg bg-white p-5 text-sm shadow-sm ring-1 ring-slate-200">
          <h2 className="text-base font-semibold">Signature — check it yourself</h2>
          <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
            <dt className="text-slate-500">Algorithm</dt><dd>Ed25519 over RFC 8785 canonical JSON</dd>
            <dt className="text-slate-500">Signing key</dt><dd><code>{row.signingKeyId}</code></dd>
            <dt className="text-slate-500">Payload SHA-256</dt><dd className="break-all"><code>{row.payloadSha256}</code></dd>
            <dt className="text-slate-500">Signature</dt><dd className="break-all"><code>{row.signature}</code></dd>
          </dl>
          <ol className="mt-3 list-decimal space-y-1 pl-5 text-slate-700">
            <li>Fetch the live, signed status: <a className="underline break-all" href={urls.status_url}>{urls.status_url}</a></li>
            <li>Remove <code>status_signature</code> and encode the rest as RFC 8785 canonical JSON.</li>
            <li>Verify the Ed25519 signature (base64url) with the key whose <code>kid</code> equals <code>signing_key_id</code> in <a className="underline break-all" href={`${base}/.well-known/jwks.json`}>{base}/.well-known/jwks.json</a>.</li>
            <li>The record&apos;s own signature and signed payload: <a className="underline break-all" href={urls.signature_url}>{urls.signature_url}</a></li>
          </ol>
        </section>

        <LogProof entry={logEntry} environment={row.environment} logUrl={`${base}/api/v1/records/${row.id}/log`} base={base} />

        <p className="mt-4 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200">
          Asked to pay someone who showed you this? <a className="font-semibold underline" href="/check">Check the operator, website and payee</a> before you pay.
        </p>

        <PublicAbout statusUrl={urls.status_url} jwksUrl={`${base}/.well-known/jwks.json`} />
        <ReportForm recordId={row.id} />
      </main>
      <PublicFooter />
    </>
  );
}

/**
 * Shown first when the visitor came from a site that showed this record's badge but is not one
 * the record is about (lib/public/embed/sightings/arrived-from.ts): which site, and which it covers.
 */
function ArrivedFrom({ arrival }: { arrival: ForeignArrival }) {
  return (
    <div data-testid="arrived-from" role="note" className="mb-4 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-amber-950">
      <p className="text-lg font-semibold [overflow-wrap:anywhere]">
        You came here from <span data-testid="arrived-host" className="font-mono">{arrival.host}</span> — this record is not about that site.
      </p>
      <p className="mt-1 [overflow-wrap:anywhere]" data-testid="arrived-covers">
        {arrival.covers.length
          ? <>It covers exactly {arrival.covers.map((d, i) => <span key={d}>{i > 0 && ", "}<span className="font-mono font-semibold">{d}</span></span>)} and no other site.</>
          : <>It names no website at all.</>}
        {" "}A site showing someone else&apos;s badge may be pretending to be them: do not pay or sign in there because of this record.
      </p>
    </div>
  );
}
