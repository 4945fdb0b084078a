import type { Metadata } from "next";
import Link from "next/link";
import { Breakable, PortalHeader, PortalMain, buttonClass, inputClass, tableClass } from "@/components/portal";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { listQueue, queueCounts } from "@/lib/reviews/review-queue";
import { SignOutButton } from "../developers/forms";
import { fmtTime, formatAge } from "./format";

export const metadata: Metadata = { title: "Review queue", robots: { index: false } };
export const dynamic = "force-dynamic";

const AGES = [
  { value: "", label: "any age" },
  { value: "1", label: "older than 1 hour" },
  { value: "24", label: "older than 24 hours" },
  { value: "72", label: "older than 3 days" },
];

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function ReviewQueuePage({ searchParams }: Props) {
  const account = await requireRole(["reviewer", "admin"], "/review");
  const sp = await searchParams;
  const claimType = one(sp.claim_type).slice(0, 100);
  const age = AGES.some((a) => a.value === one(sp.older_than)) ? one(sp.older_than) : "";
  const db = await getDb();
  const now = new Date();
  const [rows, counts] = await Promise.all([
    listQueue(db, { claimType: claimType || undefined, olderThanHours: age ? Number(age) : undefined }, now),
    queueCounts(db),
  ]);
  const total = counts.reduce((n, c) => n + c.count, 0);
  const slaHours = getEnv().REVIEW_SLA_HOURS;

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-8">
        <section>
          <h1 className="text-2xl font-semibold">Review queue</h1>
          <p className="mt-1 text-sm text-slate-600">
            Submissions waiting for a reviewer, oldest first. Target: decided within {slaHours} hours of submission.
            You cannot decide submissions of your own account.
          </p>
          <p className="mt-1 text-sm"><Link className="underline" href="/review/reports">Problems reported from certificates →</Link></p>
          <p className="mt-1 text-sm"><Link className="underline" href="/review/organisations" data-testid="org-queue-link">Organisation verifications →</Link></p>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Waiting per claim type <span className="text-slate-500" data-testid="queue-total">({total})</span></h2>
          <ul className="mt-2 flex flex-wrap gap-2 text-sm" data-testid="queue-counts">
            {counts.length === 0 && <li className="text-slate-600">Nothing is waiting.</li>}
            {counts.map((c) => (
              <li key={c.claimType} data-testid="queue-count" data-claim-type={c.claimType} data-count={c.count}>
                <Link className="inline-block max-w-full rounded border border-slate-300 bg-white px-2 py-1 [overflow-wrap:anywhere] hover:bg-slate-100" href={`/review?claim_type=${encodeURIComponent(c.claimType)}`}>
                  {c.claimType}: <strong>{c.count}</strong>
                  <span className="text-slate-500"> · oldest {c.oldest ? formatAge(now.getTime() - new Date(c.oldest).getTime()) : "—"}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <form className="flex flex-wrap items-end gap-4 text-sm" method="get" data-testid="queue-filters">
          <label>Claim type
            <select name="claim_type" defaultValue={claimType} className={inputClass}>
              <option value="">all</option>
              {counts.map((c) => <option key={c.claimType} value={c.claimType}>{c.claimType}</option>)}
              {claimType && !counts.some((c) => c.claimType === claimType) && <option value={claimType}>{claimType}</option>}
            </select>
          </label>
          <label>Age
            <select name="older_than" defaultValue={age} className={inputClass}>
              {AGES.map((a) => <option key={a.value} value={a.value}>{a.label}</option>)}
            </select>
          </label>
          <button className={buttonClass} type="submit">Filter</button>
          {(claimType || age) && <Link className="underline" href="/review">Clear</Link>}
        </form>

        <div className="overflow-x-auto">
        <table className={tableClass} data-testid="queue">
          <thead className="border-b border-slate-200 text-slate-500">
            <tr><th className="py-2">Submission</th><th>Claim type</th><th>Subject</th><th>Customer</th><th>Env</th><th>Submitted</th><th>Age (SLA)</th><th>Why it waits</th></tr>
          </thead>
          <tbody>
            {rows.length === 0 && <tr><td colSpan={8} className="py-4 text-slate-600" data-testid="queue-empty">No submission matches.</td></tr>}
            {rows.map((r) => (
              <tr key={r.id} className="border-b border-slate-100 align-top" data-testid="queue-row" data-id={r.id}>
                <td data-label="Submission" className="whitespace-nowrap py-2"><Link className="font-mono underline" href={`/review/${r.id}`}>{r.id}</Link></td>
                <td data-label="Claim type"><Breakable text={r.claimType} /></td>
                <td data-label="Subject" className="[overflow-wrap:anywhere]">{r.subject}</td>
                <td data-label="Customer"><Breakable text={r.accountEmail} />{r.accountId === account.id && <span className="ml-1 text-amber-700">(your account)</span>}</td>
                <td data-label="Env">{r.environment}</td>
                <td data-label="Submitted">{fmtTime(r.createdAt)}</td>
                <td data-label="Age (SLA)" className="whitespace-nowrap">
                  {formatAge(r.sla.ageMs)}{" "}
                  {r.sla.overdue
                    ? <span className="rounded bg-red-100 px-1 text-red-800" data-testid="sla-overdue">overdue</span>
                    : <span className="block text-slate-500">due in {formatAge(r.sla.slaMs - r.sla.ageMs)}</span>}
                </td>
                <td data-label="Why it waits" className="min-w-48 max-w-xs text-slate-600 [overflow-wrap:anywhere]">{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      </PortalMain>
    </>
  );
}
