import type { Metadata } from "next";
import { notFound } from "next/navigation";
import QRCode from "qrcode";
import { ProofScope } from "@/components/proof-scope";
import { StatusBadge } from "@/components/status-badge";
import { getDb } from "@/lib/db/client";
import { EVIDENCE_LEVEL_TEXT, STATUS_TEXT } from "@/lib/records/evidence-level-text";
import { getPublicRecord } from "@/lib/records/get-record";
import { getPublicView } from "@/lib/records/public-view";
import { recordUrls } from "@/lib/records/urls";
import { getEnv } from "@/lib/env";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const row = await getPublicRecord(await getDb(), id);
  if (!row) return { title: "Record not found", robots: { index: false } };
  const hidden = row.environment === "sandbox" || row.visibility === "private";
  return { title: `${row.id} — ${row.subject}`, robots: hidden ? { index: false, follow: false } : undefined };
}

const fmt = (d: Date | null) => (d ? d.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") : "—");

export default async function CertificatePage({ params }: Props) {
  const { id } = await params;
  const db = await getDb();
  const view = await getPublicView(db, id);
  if (!view) notFound();
  const { row, status, changedAt, verified, history, links } = view;
  const urls = recordUrls(row.id);
  const level = EVIDENCE_LEVEL_TEXT[row.evidenceLevel]!;
  const statusText = STATUS_TEXT[status]!;
  const qrSvg = await QRCode.toString(urls.certificate_url, { type: "svg", margin: 1 });
  const evidence = Object.entries(row.evidencePublic ?? {});
  const base = getEnv().publicBaseUrl;

  return (
    <main className="mx-auto max-w-3xl px-4 py-10" data-status={status}>
      {row.environment === "sandbox" && (
        <div data-testid="sandbox-banner" className="mb-6 rounded-lg border-2 border-dashed border-violet-500 bg-violet-50 p-4 text-violet-900">
          <strong>Sandbox — not verified.</strong> This is a test record. It proves nothing and must not be relied on.
        </div>
      )}
      {status !== "active" && (
        <div data-testid="status-alert" role="alert" className={`mb-6 rounded-lg p-5 text-lg font-semibold ${status === "suspended" ? "bg-amber-500 text-black" : status === "revoked" ? "bg-red-700 text-white" : "bg-slate-700 text-white"}`}>
          {statusText.label.toUpperCase()}: {statusText.explain}
          {row.supersededBy && (
            <span className="block text-base font-normal">
              Replaced by <a className="underline" href={`/r/${row.supersededBy}`}>{row.supersededBy}</a>.
            </span>
          )}
        </div>
      )}

      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm uppercase tracking-wide text-slate-500">Proof record {row.id}</p>
          <h1 className="mt-1 text-2xl font-semibold break-words">{row.subject}</h1>
          <p className="mt-2 text-slate-700">Claim type: <code>{row.claimType}</code></p>
        </div>
        <div className="flex flex-col items-end gap-2">
          <StatusBadge status={status} />
          <span className={`text-sm font-medium ${verified ? "text-emerald-700" : "text-slate-600"}`}>{verified ? "Verified" : "Not verified"}</span>
        </div>
      </header>

      <section className="mt-6 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <h2 className="font-semibold">Claim</h2>
        <p className="mt-2 whitespace-pre-wrap break-words">{row.claim}</p>
      </section>

      <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <h2 className="font-semibold">How far this was checked: {level.title}</h2>
        <p className="mt-2 text-slate-700" data-testid="evidence-explained">{level.explain}</p>
        {evidence.length > 0 && (
          <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            {evidence.map(([k, v]) => (
              <div key={k} className="contents">
                <dt className="text-slate-500">{k}</dt>
                <dd className="break-all">{typeof v === "string" ? v : JSON.stringify(v)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <ProofScope claimType={row.claimType} evidence={row.evidencePublic ?? {}} />

      {links.length > 0 && (
        <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="linked-records">
          <h2 className="font-semibold">Records this one rests on</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {links.map((l) => (
              <li key={l.role} data-standing={l.standing}>
                <span className="text-slate-500">{l.role.replaceAll("_", " ")}:</span>{" "}
                {l.record ? <a className="underline" href={l.record.certificate_url}>{l.record.subject} ({l.record.verification_id})</a> : "a record that is not public"}
                {" — "}
                <span className={l.standing === "active" ? "text-emerald-700" : "font-semibold text-red-700"}>
                  {l.standing === "active" ? "active" : `no longer active (${STATUS_TEXT[l.status]?.label.toLowerCase() ?? l.status})`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="mt-4 grid gap-4 sm:grid-cols-[1fr_auto]">
        <div className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <h2 className="font-semibold">Validity</h2>
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-500">Status</dt><dd>{statusText.label} since {fmt(changedAt)}</dd>
            <dt className="text-slate-500">Issued</dt><dd>{fmt(row.issuedAt)}</dd>
            <dt className="text-slate-500">Valid from</dt><dd>{fmt(row.validFrom)}</dd>
            <dt className="text-slate-500">Expires</dt><dd>{fmt(row.expiresAt)}</dd>
            <dt className="text-slate-500">Environment</dt><dd>{row.environment}</dd>
          </dl>
        </div>
        <figure className="rounded-lg bg-white p-3 shadow-sm ring-1 ring-slate-200">
          <div className="h-40 w-40" dangerouslySetInnerHTML={{ __html: qrSvg }} />
          <figcaption className="mt-1 text-center text-xs text-slate-500">
            <a className="underline" href={urls.qr_url}>SVG</a> · <a className="underline" href={`${urls.qr_url}?format=png`}>PNG</a>
          </figcaption>
        </figure>
      </section>

      <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <h2 className="font-semibold">History</h2>
        <ol className="mt-2 space-y-1 text-sm" data-testid="history">
          {history.map((h, i) => (
            <li key={i}>
              <span className="font-medium">{STATUS_TEXT[h.status]?.label ?? h.status}</span> — {fmt(h.at)} by {h.by}
              {h.reason ? `: ${h.reason}` : ""}
            </li>
          ))}
        </ol>
      </section>

      <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 text-sm">
        <h2 className="font-semibold text-base">Signature — check it yourself</h2>
        <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-500">Algorithm</dt><dd>Ed25519 over RFC 8785 canonical JSON</dd>
          <dt className="text-slate-500">Signing key</dt><dd><code>{row.signingKeyId}</code></dd>
          <dt className="text-slate-500">Payload SHA-256</dt><dd className="break-all"><code>{row.payloadSha256}</code></dd>
          <dt className="text-slate-500">Signature</dt><dd className="break-all"><code>{row.signature}</code></dd>
        </dl>
        <ol className="mt-3 list-decimal space-y-1 pl-5 text-slate-700">
          <li>Fetch the live, signed status: <a className="underline break-all" href={urls.status_url}>{urls.status_url}</a></li>
          <li>Remove <code>status_signature</code> and encode the rest as RFC 8785 canonical JSON.</li>
          <li>Verify the Ed25519 signature (base64url) with the key whose <code>kid</code> equals <code>signing_key_id</code> in <a className="underline" href={`${base}/.well-known/jwks.json`}>{base}/.well-known/jwks.json</a>.</li>
          <li>The record's own signature and signed payload: <a className="underline break-all" href={urls.signature_url}>{urls.signature_url}</a></li>
        </ol>
      </section>
    </main>
  );
}
