import type { Metadata } from "next";
import Link from "next/link";
import { Breakable, PortalHeader, PortalMain, buttonClass, inputClass, DataTable } from "@/components/portal";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { listQueue, queueCounts, queueTotals, type QueueEnvironment } from "@/lib/reviews/review-queue";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../developers/forms";
import { formatAge } from "./format";
import { NEW_ACCOUNT_MS } from "@/lib/reviews/risk-signals";

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
  // Live submissions by default; sandbox ones only in their own tab, never in the live counts or SLA figures.
  const env: QueueEnvironment = one(sp.env) === "sandbox" ? "sandbox" : "live";
  const claimType = one(sp.claim_type).slice(0, 100);
  const age = AGES.some((a) => a.value === one(sp.older_than)) ? one(sp.older_than) : "";
  const db = await getDb();
  const now = new Date();
  const [rows, counts, totals] = await Promise.all([
    listQueue(db, { environment: env, claimType: claimType || undefined, olderThanHours: age ? Number(age) : undefined }, now),
    queueCounts(db, env, now),
    queueTotals(db),
  ]);
  const total = counts.reduce((n, c) => n + c.count, 0);
  const overdue = counts.reduce((n, c) => n + c.overdue, 0);
  const envQuery = env === "sandbox" ? "env=sandbox&" : "";
  const tab = (e: QueueEnvironment, label: string) => (
    <Link
      href={e === "sandbox" ? "/review?env=sandbox" : "/review"} aria-current={env === e ? "page" : undefined} data-testid={`queue-tab-${e}`} data-count={totals[e]}
      className={`rounded-t border border-b-0 px-3 py-1.5 ${env === e ? "border-slate-400 bg-white font-semibold" : "border-transparent text-slate-600 underline"}`}
    >
      {label} ({totals[e]})
    </Link>
  );
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

        <nav className="flex gap-1 border-b border-slate-300 text-sm" aria-label="Queue" data-testid="queue-tabs">
          {tab("live", "Live submissions")}
          {tab("sandbox", "Sandbox (tests)")}
        </nav>
        {env === "sandbox" && (
          <p className="rounded border border-dashed border-violet-500 bg-violet-50 p-3 text-sm text-violet-950" data-testid="sandbox-queue-note">
            Sandbox submissions are customers&apos; tests: they prove nothing, are never public and have no review target. They are not counted in the live queue.
          </p>
        )}

        <section>
          <h2 className="text-lg font-semibold">Waiting per claim type <span className="text-slate-500" data-testid="queue-total" data-env={env}>({total})</span>
            {env === "live" && overdue > 0 && <span className="ml-2 rounded bg-red-100 px-1.5 text-sm text-red-800" data-testid="queue-overdue" data-count={overdue}>{overdue} overdue</span>}
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2 text-sm" data-testid="queue-counts">
            {counts.length === 0 && <li className="text-slate-600">Nothing is waiting.</li>}
            {counts.map((c) => (
              <li key={c.claimType} data-testid="queue-count" data-claim-type={c.claimType} data-count={c.count}>
                <Link className="inline-block max-w-full rounded border border-slate-300 bg-white px-2 py-1 [overflow-wrap:anywhere] hover:bg-slate-100" href={`/review?${envQuery}claim_type=${encodeURIComponent(c.claimType)}`}>
                  {c.claimType}: <strong>{c.count}</strong>
                  <span className="text-slate-500"> · oldest {c.oldest ? formatAge(now.getTime() - new Date(c.oldest).getTime()) : "—"}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <form className="flex flex-wrap items-end gap-4 text-sm" method="get" data-testid="queue-filters">
          {env === "sandbox" && <input type="hidden" name="env" value="sandbox" />}
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
          {(claimType || age) && <Link className="underline" href={env === "sandbox" ? "/review?env=sandbox" : "/review"}>Clear</Link>}
        </form>

        <DataTable testId="queue" head={["Submission", "Claim type", "Subject", "Customer", "Env", "Submitted", "Age (SLA)", "Why it waits"]}>
          {rows.length === 0 && <tr><td colSpan={8} className="py-4 text-slate-600" data-testid="queue-empty">No submission matches.</td></tr>}
          {rows.map((r) => (
            <tr key={r.id} className="border-b border-slate-100 align-top" data-testid="queue-row" data-id={r.id}>
              <td data-label="Submission" className="whitespace-nowrap py-2"><Link className="font-mono underline" href={`/review/${r.id}`}>{r.id}</Link></td>
              <td data-label="Claim type"><Breakable text={r.claimType} /></td>
              <td data-label="Subject" className="[overflow-wrap:anywhere]">{r.subject}</td>
              <td data-label="Customer">
                <Link className="underline" href={`/review/accounts/${r.accountId}`}><Breakable text={r.accountEmail} /></Link>
                {r.accountId === account.id && <span className="ml-1 text-amber-700">(your account)</span>}
                {/* The account's age is the cheapest risk signal: the page shows them all. */}
                <span className={`block text-xs ${now.getTime() - r.accountCreatedAt.getTime() < NEW_ACCOUNT_MS ? "text-amber-700" : "text-slate-500"}`} data-testid="account-age">
                  account {formatAge(now.getTime() - r.accountCreatedAt.getTime())} old
                </span>
                {r.accountSuspendedAt && <span className="block text-xs font-semibold text-red-800">account suspended</span>}
              </td>
              <td data-label="Env">{r.environment}</td>
              <td data-label="Submitted">{formatUtc(r.createdAt)}</td>
              <td data-label="Age (SLA)" className="whitespace-nowrap">
                {formatAge(r.sla.ageMs)}{" "}
                {env === "sandbox"
                  ? null
                  : r.sla.overdue
                  ? <span className="rounded bg-red-100 px-1 text-red-800" data-testid="sla-overdue">overdue</span>
                  : <span className="block text-slate-500">due in {formatAge(r.sla.slaMs - r.sla.ageMs)}</span>}
              </td>
              <td data-label="Why it waits" className="min-w-48 max-w-xs text-slate-600 [overflow-wrap:anywhere]">{r.reason}</td>
            </tr>
          ))}
        </DataTable>
      </PortalMain>
    </>
  );
}
