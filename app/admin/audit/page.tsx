import type { Metadata } from "next";
import Link from "next/link";
import { Breakable, DataTable, PortalHeader, PortalMain, buttonClass, inputClass } from "@/components/portal";
import { auditAuthor, listAudit } from "@/lib/audit/staff-audit";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { formatUtc } from "@/lib/format/dates";
import { ACCOUNT_ID_RE } from "@/lib/ids";
import { SignOutButton } from "../../developers/forms";

export const metadata: Metadata = { title: "Staff audit trail", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
const PAGE = 100;

/** Who did what, when and why — every staff action, newest first, append-only (issue 39, item 5). */
export default async function AuditPage({ searchParams }: Props) {
  const admin = await requireRole(["admin"], "/admin/audit");
  const sp = await searchParams;
  const account = ACCOUNT_ID_RE.test(one(sp.account)) ? one(sp.account) : "";
  const before = Number(one(sp.before));
  const rows = await listAudit(await getDb(), {
    ...(account && { accountId: account }), ...(Number.isSafeInteger(before) && before > 0 && { beforeSeq: before }), limit: PAGE,
  });
  const exportHref = `/admin/audit/export${account ? `?account=${account}` : ""}`;
  const json = (v: Record<string, unknown> | null) => (v ? JSON.stringify(v) : "—");

  return (
    <>
      <PortalHeader role={admin.role} right={<><span className="text-slate-600">{admin.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-6">
        <p className="text-sm"><Link className="underline" href="/admin">← Admin</Link></p>
        <section>
          <h1 className="text-2xl font-semibold">Staff audit trail</h1>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">
            Every staff action — decisions on submissions, organisation applications and plan requests; suspending, reinstating or revoking
            a record or an account; plans and roles set; reports closed — with who, when, why and what it changed. Entries are never
            changed or removed.
          </p>
        </section>
        <form method="get" className="flex flex-wrap items-end gap-3 text-sm" data-testid="audit-filter">
          <label>Account <input name="account" defaultValue={account} placeholder="acct_…" className={inputClass} /></label>
          <button className={buttonClass} type="submit">Filter</button>
          {account && <Link className="underline" href="/admin/audit">Clear</Link>}
          <a className="underline" href={exportHref} data-testid="audit-export" download>Export as CSV</a>
        </form>
        <DataTable testId="audit" head={["When", "Who", "Action", "On", "Account", "Reason", "Before → after"]}>
          {rows.length === 0 && <tr><td colSpan={7} className="py-4 text-slate-600">No entries.</td></tr>}
          {rows.map((e) => (
            <tr key={e.seq} className="border-b border-slate-100 align-top" data-testid="audit-row" data-action={e.action} data-staff={e.staffEmail ?? "operator"}>
              <td data-label="When" className="whitespace-nowrap py-2">{formatUtc(e.at)}</td>
              <td data-label="Who"><Breakable text={auditAuthor(e)} /></td>
              <td data-label="Action" className="font-medium">{e.action}</td>
              <td data-label="On" className="font-mono text-xs [overflow-wrap:anywhere]">{e.subjectKind === "record" ? <Link className="underline" href={`/review/${e.subjectId}`}>{e.subjectId}</Link> : e.subjectId}</td>
              <td data-label="Account" className="font-mono text-xs [overflow-wrap:anywhere]">{e.accountId ? <Link className="underline" href={`/review/accounts/${e.accountId}`}>{e.accountId}</Link> : "—"}</td>
              <td data-label="Reason" className="max-w-xs [overflow-wrap:anywhere]">{e.reason ?? "—"}</td>
              <td data-label="Before → after" className="max-w-md font-mono text-xs [overflow-wrap:anywhere]">{json(e.before)} → {json(e.after)}</td>
            </tr>
          ))}
        </DataTable>
        {rows.length === PAGE && (
          <p className="text-sm"><Link className="underline" href={`/admin/audit?${account ? `account=${account}&` : ""}before=${rows.at(-1)!.seq}`} data-testid="audit-older">Older entries →</Link></p>
        )}
      </PortalMain>
    </>
  );
}
