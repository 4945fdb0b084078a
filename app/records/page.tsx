import type { Metadata } from "next";
import Link from "next/link";
import { Alert, PortalHeader, buttonClass, inputClass, secondaryButtonClass, PortalMain } from "@/components/portal";
import { StatusBadge } from "@/components/status-badge";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { EVIDENCE_LEVEL_TEXT } from "@/lib/record-model/evidence-level-text";
import { listRecords } from "@/lib/records/list-records";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { listRecordsQuerySchema } from "@/lib/record-model/schemas";
import { formatUtc } from "@/lib/format/dates";
import { claimTypeLabel } from "@/lib/claims/form-spec";
import { SignOutButton } from "../developers/forms";

export const metadata: Metadata = { title: "Records", robots: { index: false } };
export const dynamic = "force-dynamic";

const STATUSES = ["pending_review", "active", "suspended", "revoked", "expired", "superseded", "rejected"] as const;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;
const ROW = "grid grid-cols-2 gap-x-4 gap-y-3 border-b border-slate-100 p-4 last:border-0 sm:table-row sm:p-0";
/** Below 640 px a cell is a block captioned by its data-label; from 640 px up, a table cell under its header. */
const CELL = "block sm:table-cell before:mb-1 before:block before:text-xs before:text-slate-500 before:content-[attr(data-label)] sm:before:content-none";
/** The level in plain words; a submission still waiting for a reviewer may have none yet. */
const levelText = (level: string | null) => (level ? (EVIDENCE_LEVEL_TEXT[level]?.title ?? level) : "—");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function RecordsPage({ searchParams }: Props) {
  const account = await requireAccount("/records");
  const sp = await searchParams;
  // Both environments unless one is chosen: after going live, live and sandbox records sit side by side.
  const envParam = one(sp.environment);
  const environment = envParam === "live" || envParam === "sandbox" ? envParam : "all";
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
      page = await listRecords(await getDb(), portalAuth(account, environment === "all" ? "sandbox" : environment), parsed.data,
        { bothEnvironments: environment === "all" });
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
      <PortalMain className="space-y-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold">Records</h1>
          <Link href="/records/new" className={buttonClass} data-testid="new-record">New record</Link>
        </div>
        <form method="get" action="/records" className="flex flex-wrap items-end gap-3 text-sm" data-testid="filters">
          <label>Environment
            <select name="environment" defaultValue={environment} className={inputClass}>
              <option value="all">all</option>
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
          // A table from 640 px up (scrolling inside its box if ever too narrow); below that each
          // row stacks as a card whose cells name themselves (data-label), so nothing sticks out.
          <div className="overflow-x-auto rounded border border-slate-200 bg-white" data-testid="records-box">
            <table className="block w-full text-left text-sm sm:table sm:min-w-[46rem] sm:[&_td]:px-3 sm:[&_td]:py-2.5 sm:[&_td]:align-top sm:[&_th]:px-3 sm:[&_th]:py-2" data-testid="records">
              <thead className="hidden border-b border-slate-200 bg-slate-50 text-xs font-medium text-slate-600 sm:table-header-group">
                <tr><th className="w-[13rem]">Record</th><th>Claim</th><th>Environment</th><th>Status</th><th>Evidence level</th><th>Visibility</th><th><span className="sr-only">Certificate</span></th></tr>
              </thead>
              <tbody className="block sm:table-row-group">
                {page.data.map((r) => (
                  <tr key={r.verification_id} className={ROW} data-testid="record-row" data-id={r.verification_id}>
                    <td className="col-span-2 block sm:table-cell">
                      <span className="block break-words font-medium" data-testid="record-subject">{r.subject}</span>
                      <Link className="block whitespace-nowrap font-mono text-xs underline" href={`/records/${r.verification_id}`}>{r.verification_id}</Link>
                      <span className="block whitespace-nowrap text-xs text-slate-500">{formatUtc(r.created_at)}</span>
                    </td>
                    <td className="col-span-2 block sm:table-cell" data-testid="record-claim">
                      <span className="block text-xs font-medium text-slate-700">
                        {claimTypeLabel(r.claim_type)} <span className="font-mono font-normal text-slate-500" title="The claim type, as the API names it">{r.claim_type}</span>
                      </span>
                      <span className="line-clamp-3 break-words" title={r.claim}>{r.claim}</span>
                    </td>
                    <td className={CELL} data-label="Environment" data-testid="record-environment">
                      <span className={r.environment === "live" ? "font-medium text-emerald-800" : "text-slate-600"}>{r.environment}</span>
                    </td>
                    <td className={`${CELL} whitespace-nowrap`} data-label="Status"><StatusBadge status={r.status} /></td>
                    <td className={CELL} data-label="Evidence level" data-testid="record-level">{levelText(r.evidence_level)}</td>
                    <td className={CELL} data-label="Visibility" data-testid="record-visibility">{r.visibility}</td>
                    <td className={`${CELL} whitespace-nowrap`} data-label="Certificate">
                      {r.certificate_url ? <Link className="underline" href={`/r/${r.verification_id}`}>Certificate</Link> : <span className="text-slate-400">—</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="flex gap-4 text-sm">
          {startingAfter && <Link className="underline" href={`/records?${new URLSearchParams(filters)}`}>First page</Link>}
          {nextHref && <Link className="underline" href={nextHref} data-testid="next-page">Next page</Link>}
        </div>
      </PortalMain>
    </>
  );
}
