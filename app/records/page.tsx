import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PortalHeader, inputClass, secondaryButtonClass } from "@/components/portal";
import { StatusBadge } from "@/components/status-badge";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { listRecords } from "@/lib/records/list-records";
import { portalAuth } from "@/lib/records/portal-auth";
import { listRecordsQuerySchema } from "@/lib/records/schemas";
import { SignOutButton } from "../developers/forms";

export const metadata: Metadata = { title: "Records", robots: { index: false } };
export const dynamic = "force-dynamic";

const STATUSES = ["pending_review", "active", "suspended", "revoked", "expired", "superseded", "rejected"] as const;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const fmt = (iso: string) => iso.replace("T", " ").slice(0, 16) + " UTC";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function RecordsPage({ searchParams }: Props) {
  const account = await requireAccount("/records");
  const sp = await searchParams;
  const environment = one(sp.environment) === "live" ? "live" : "sandbox";
  const status = one(sp.status);
  const claimType = one(sp.claim_type)?.trim() || undefined;
  const startingAfter = one(sp.starting_after);
  const limit = one(sp.limit);

  const filters = {
    environment, ...(status ? { status } : {}), ...(claimType ? { claim_type: claimType } : {}), ...(limit ? { limit } : {}),
  };
  const parsed = listRecordsQuerySchema.safeParse({
    limit: limit ?? 20,
    ...(status ? { status } : {}),
    ...(claimType ? { claim_type: claimType } : {}),
    ...(startingAfter ? { starting_after: startingAfter } : {}),
  });

  let error: string | null = null;
  let page: Awaited<ReturnType<typeof listRecords>> | null = null;
  if (!parsed.success) {
    error = "The filters are not valid. Choose a status from the list, a claim type of at most 64 characters and a page size of 1 to 100.";
  } else {
    try {
      page = await listRecords(await getDb(), portalAuth(account, environment), parsed.data);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      error = e.message;
    }
  }
  const last = page?.data.at(-1);
  const nextHref = page?.has_more && last
    ? `/records?${new URLSearchParams({ ...filters, starting_after: last.verification_id })}`
    : null;

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <main className="mx-auto max-w-4xl space-y-6 px-6 py-10">
        <h1 className="text-2xl font-semibold">Records</h1>
        <form method="get" action="/records" className="flex flex-wrap items-end gap-3 text-sm" data-testid="filters">
          <label>Environment
            <select name="environment" defaultValue={environment} className={inputClass}>
              <option value="sandbox">sandbox</option>
              <option value="live">live</option>
            </select>
          </label>
          <label>Status
            <select name="status" defaultValue={status ?? ""} className={inputClass}>
              <option value="">any</option>
              {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </label>
          <label>Claim type
            <input name="claim_type" defaultValue={claimType ?? ""} className={inputClass} maxLength={64} />
          </label>
          <button type="submit" className={secondaryButtonClass}>Filter</button>
        </form>

        {error && <Alert kind="error">{error}</Alert>}
        {page && page.data.length === 0 && <p className="text-sm text-slate-600" data-testid="no-records">No records match.</p>}
        {page && page.data.length > 0 && (
          <table className="w-full text-left text-sm [&_td]:pr-4 [&_th]:pr-4" data-testid="records">
            <thead className="border-b border-slate-200 text-slate-500">
              <tr><th className="py-2">Id</th><th>Subject</th><th>Claim type</th><th>Status</th><th>Evidence</th><th>Created</th><th>Certificate</th></tr>
            </thead>
            <tbody>
              {page.data.map((r) => (
                <tr key={r.verification_id} className="border-b border-slate-100" data-testid="record-row" data-id={r.verification_id}>
                  <td className="py-2 font-mono text-xs">
                    <Link className="underline" href={`/records/${r.verification_id}`}>{r.verification_id}</Link>
                  </td>
                  <td>{r.subject}</td>
                  <td>{r.claim_type}</td>
                  <td><StatusBadge status={r.status} /></td>
                  <td>{r.evidence_level ?? "—"}</td>
                  <td className="whitespace-nowrap">{fmt(r.created_at)}</td>
                  <td>{r.certificate_url ? <Link className="underline" href={`/r/${r.verification_id}`}>Certificate</Link> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <div className="flex gap-4 text-sm">
          {startingAfter && <Link className="underline" href={`/records?${new URLSearchParams(filters)}`}>First page</Link>}
          {nextHref && <Link className="underline" href={nextHref} data-testid="next-page">Next page</Link>}
        </div>
      </main>
    </>
  );
}
