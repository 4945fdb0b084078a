import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breakable, DataTable, PortalHeader, PortalMain } from "@/components/portal";
import { StatusBadge } from "@/components/status-badge";
import { auditAuthor } from "@/lib/audit/staff-audit";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { formatUtc } from "@/lib/format/dates";
import { accountOverview, OVERVIEW_LIMIT } from "@/lib/staff/account-overview";
import { SignOutButton } from "../../../developers/forms";
import { RiskPanel } from "../../risk-panel";
import { AccountActionForm } from "../forms";

export const metadata: Metadata = { title: "Account", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };
const dl = "mt-2 grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] gap-x-6 gap-y-2 text-sm";

/** An account as staff see it (issue 39, item 3): everything it has, its risk, and the one action that takes it all down. */
export default async function AccountConsolePage({ params }: Props) {
  const { id } = await params;
  const staff = await requireRole(["reviewer", "admin"], "/review");
  const o = await accountOverview(await getDb(), id);
  if (!o) notFound();
  const a = o.account;
  const own = a.id === staff.id;
  const more = (n: number) => n >= OVERVIEW_LIMIT && <p className="mt-1 text-xs text-slate-500">The newest {OVERVIEW_LIMIT} are shown.</p>;

  return (
    <>
      <PortalHeader role={staff.role} right={<><span className="text-slate-600">{staff.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-8">
        <p className="text-sm"><Link className="underline" href="/review">← Review queue</Link></p>
        <section>
          <h1 className="text-xl font-semibold [overflow-wrap:anywhere]" data-testid="account-heading">{a.name ?? a.email}</h1>
          <div className="mt-1 flex flex-wrap gap-2 text-sm">
            <span className="font-mono text-slate-600">{a.id}</span>
            {a.suspendedAt
              ? <span className="rounded bg-red-100 px-1.5 font-semibold text-red-800" data-testid="account-state" data-state="suspended">Suspended</span>
              : <span className="rounded bg-emerald-100 px-1.5 text-emerald-900" data-testid="account-state" data-state="active">Active</span>}
          </div>
          {a.suspendedAt && (
            <p className="mt-2 rounded border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950" data-testid="suspension">
              Suspended {formatUtc(a.suspendedAt)}: {a.suspendedReason}
            </p>
          )}
          <dl className={dl} data-testid="account-facts">
            <dt className="text-slate-500">Email</dt><dd>{a.email} {a.emailConfirmedAt ? <span className="text-slate-500">(confirmed {formatUtc(a.emailConfirmedAt)})</span> : <span className="text-amber-700">(not confirmed)</span>}</dd>
            <dt className="text-slate-500">Name</dt><dd>{a.name ?? <span className="text-slate-500">unnamed</span>}{a.renameCount > 0 && <span className="text-slate-500"> — renamed {a.renameCount}×, last {formatUtc(a.renamedAt)}</span>}</dd>
            <dt className="text-slate-500">Organisation</dt><dd data-testid="account-organisation">{o.organisation ? <>{o.organisation.legalName}{o.organisation.lei && <span className="font-mono"> ({o.organisation.lei})</span>} — {o.organisation.status}</> : <span className="text-slate-500">not a verified organisation</span>}</dd>
            <dt className="text-slate-500">Plan</dt><dd data-testid="account-plan">{a.plan}{a.suspendedAt && <span className="text-red-800"> (frozen)</span>}</dd>
            <dt className="text-slate-500">Role</dt><dd>{a.role}</dd>
            <dt className="text-slate-500">Opened</dt><dd>{formatUtc(a.createdAt)} ({a.createdBy === "operator" ? "by the operator" : "sign-up"})</dd>
            <dt className="text-slate-500">Records</dt><dd>{o.recordTotal} in all; {o.liveActive} live and active</dd>
          </dl>
        </section>

        <RiskPanel risk={o.risk} what="account" decides={false} />

        <section data-testid="account-action">
          <h2 className="text-lg font-semibold">{a.suspendedAt ? "Lift the suspension" : "Take the account down"}</h2>
          {own
            ? <p className="mt-2 rounded border border-amber-300 bg-amber-50 px-4 py-3 text-sm" data-testid="own-account">This is your own account: another staff member must act on it.</p>
            : <AccountActionForm accountId={a.id} suspended={Boolean(a.suspendedAt)} />}
        </section>

        <section>
          <h2 className="text-lg font-semibold">Records ({o.recordTotal})</h2>
          <DataTable className="mt-2" testId="account-records" head={["Record", "Claim type", "Subject", "Env", "Standing", "Created"]}>
            {o.records.length === 0 && <tr><td colSpan={6} className="py-3 text-slate-600">No records.</td></tr>}
            {o.records.map((r) => (
              <tr key={r.id} className="border-b border-slate-100 align-top" data-testid="account-record" data-id={r.id} data-standing={r.standing}>
                <td data-label="Record" className="whitespace-nowrap py-2"><Link className="font-mono underline" href={`/review/${r.id}`}>{r.id}</Link></td>
                <td data-label="Claim type"><Breakable text={r.claimType} /></td>
                <td data-label="Subject" className="[overflow-wrap:anywhere]">{r.subject}</td>
                <td data-label="Env">{r.environment}{r.visibility === "private" && <span className="text-slate-500"> (private)</span>}</td>
                <td data-label="Standing"><StatusBadge status={r.standing} /></td>
                <td data-label="Created" className="whitespace-nowrap">{formatUtc(r.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
          {more(o.records.length)}
        </section>

        <section>
          <h2 className="text-lg font-semibold">API keys</h2>
          <DataTable className="mt-2" testId="account-keys" head={["Key", "Env", "Scopes", "Created", "Last used", "State"]}>
            {o.keys.length === 0 && <tr><td colSpan={6} className="py-3 text-slate-600">No keys.</td></tr>}
            {o.keys.map((k) => (
              <tr key={k.id} className="border-b border-slate-100" data-testid="account-key">
                <td data-label="Key" className="py-2 font-mono text-xs">{k.display}</td>
                <td data-label="Env">{k.environment}</td>
                <td data-label="Scopes" className="text-xs">{k.scopes ? k.scopes.join(", ") : "all"}</td>
                <td data-label="Created" className="whitespace-nowrap">{formatUtc(k.createdAt)}</td>
                <td data-label="Last used" className="whitespace-nowrap">{k.lastUsedAt ? formatUtc(k.lastUsedAt) : "never"}</td>
                <td data-label="State">{k.revokedAt ? "revoked" : a.suspendedAt ? <span className="text-red-800">refused (account suspended)</span> : "active"}</td>
              </tr>
            ))}
          </DataTable>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Webhooks</h2>
          <DataTable className="mt-2" testId="account-webhooks" head={["Endpoint", "Env", "State", "Created"]}>
            {o.webhooks.length === 0 && <tr><td colSpan={4} className="py-3 text-slate-600">No webhooks.</td></tr>}
            {o.webhooks.map((w) => (
              <tr key={w.id} className="border-b border-slate-100" data-testid="account-webhook" data-status={w.status}>
                <td data-label="Endpoint" className="py-2 [overflow-wrap:anywhere]">{w.url}</td>
                <td data-label="Env">{w.environment}</td>
                <td data-label="State">{w.status}{w.disabledReason && <span className="text-slate-500"> ({w.disabledReason === "account_suspended" ? "account suspended" : w.disabledReason})</span>}</td>
                <td data-label="Created" className="whitespace-nowrap">{formatUtc(w.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Plan requests</h2>
          <DataTable className="mt-2" testId="account-plan-requests" head={["Request", "Plan", "State", "Sent", "Reason"]}>
            {o.planRequests.length === 0 && <tr><td colSpan={5} className="py-3 text-slate-600">None.</td></tr>}
            {o.planRequests.map((p) => (
              <tr key={p.id} className="border-b border-slate-100">
                <td data-label="Request" className="py-2 font-mono text-xs">{p.id}</td>
                <td data-label="Plan">{p.plan}</td>
                <td data-label="State">{p.status}</td>
                <td data-label="Sent" className="whitespace-nowrap">{formatUtc(p.createdAt)}</td>
                <td data-label="Reason" className="[overflow-wrap:anywhere]">{p.reason ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Problems reported</h2>
          <DataTable className="mt-2" testId="account-reports" head={["Report", "Record", "Message", "State", "Sent"]}>
            {o.reports.length === 0 && <tr><td colSpan={5} className="py-3 text-slate-600">No reports.</td></tr>}
            {o.reports.map((r) => (
              <tr key={r.id} className="border-b border-slate-100 align-top" data-testid="account-report">
                <td data-label="Report" className="py-2 font-mono text-xs">{r.id}</td>
                <td data-label="Record"><Link className="font-mono underline" href={`/review/${r.recordId}`}>{r.recordId}</Link></td>
                <td data-label="Message" className="max-w-md [overflow-wrap:anywhere]">{r.message}</td>
                <td data-label="State">{r.status}</td>
                <td data-label="Sent" className="whitespace-nowrap">{formatUtc(r.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
        </section>

        <section>
          <h2 className="text-lg font-semibold">What staff did</h2>
          <DataTable className="mt-2" testId="account-audit" head={["When", "Who", "Action", "On", "Reason"]}>
            {o.audit.length === 0 && <tr><td colSpan={5} className="py-3 text-slate-600">Nothing yet.</td></tr>}
            {o.audit.map((e) => (
              <tr key={e.seq} className="border-b border-slate-100 align-top" data-testid="account-audit-row" data-action={e.action}>
                <td data-label="When" className="whitespace-nowrap py-2">{formatUtc(e.at)}</td>
                <td data-label="Who" className="[overflow-wrap:anywhere]">{auditAuthor(e)}</td>
                <td data-label="Action">{e.action}</td>
                <td data-label="On" className="font-mono text-xs [overflow-wrap:anywhere]">{e.subjectId}</td>
                <td data-label="Reason" className="max-w-md [overflow-wrap:anywhere]">{e.reason ?? "—"}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      </PortalMain>
    </>
  );
}
