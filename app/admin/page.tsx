import type { Metadata } from "next";
import Link from "next/link";
import { PortalHeader, PortalMain, buttonClass, inputClass, DataTable } from "@/components/portal";
import { listAccounts } from "@/lib/accounts/manage-account";
import { requireRole } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { keyring } from "@/lib/signing/keys";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../developers/forms";
import { listPendingPlanRequests } from "@/lib/accounts/plan-requests";
import { planRequestReviews, type PlanRequestReview as PlanRequestReviewData } from "@/lib/staff/decide-plan-request";
import { RiskPanel } from "../review/risk-panel";
import { AccountControls, PlanRequestControls, RotateKeyForm } from "./forms";

export const metadata: Metadata = { title: "Admin", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AdminPage({ searchParams }: Props) {
  const account = await requireRole(["admin"], "/admin");
  const sp = await searchParams;
  const q = (Array.isArray(sp.q) ? sp.q[0] : sp.q)?.slice(0, 200) ?? "";
  const db = await getDb();
  const [rows, requests] = await Promise.all([listAccounts(db, { emailContains: q || undefined }), listPendingPlanRequests(db)]);
  const reviews = await planRequestReviews(db, requests);
  const ring = keyring();

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-10">
        <h1 className="text-2xl font-semibold">Admin</h1>
        <p className="text-sm"><Link className="underline" href="/admin/audit" data-testid="audit-link">Staff audit trail →</Link></p>

        <section>
          <h2 className="text-lg font-semibold">Plan requests</h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">
            Customers asking to go live, oldest first. Approving sets the account&apos;s plan (as &ldquo;Set plan&rdquo; below does) and mails
            the customer; declining mails them your reason. There is no payment provider: agree terms with the customer before approving.
          </p>
          {requests.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600" data-testid="no-plan-requests">No requests waiting.</p>
          ) : (
            <DataTable className="mt-4" testId="plan-requests" head={["Customer", "Asks for", "Note", "Sent", "Decision"]}>
              {requests.map((r) => (
                <tr key={r.id} className="border-b border-slate-100 align-top" data-testid="plan-request-row" data-email={r.email} data-request-id={r.id}>
                  <td data-label="Customer" className="py-2 [overflow-wrap:anywhere]">
                    {/* One block: on a phone the cell lays its children out side by side. */}
                    <div>
                      {r.email}
                      <div className="font-mono text-xs text-slate-500">{r.accountId}</div>
                      <div className="text-xs text-slate-500">now on {r.currentPlan}; email {r.emailConfirmedAt ? "confirmed" : "not confirmed"}</div>
                      <PlanRequestReview review={reviews.get(r.id)} accountId={r.accountId} staffId={account.id} />
                    </div>
                  </td>
                  <td data-label="Asks for" className="font-medium">{r.plan}</td>
                  <td data-label="Note" className="max-w-xs text-sm [overflow-wrap:anywhere]">{r.note ?? <span className="text-slate-400">—</span>}</td>
                  <td data-label="Sent" className="whitespace-nowrap">{formatUtc(r.createdAt)}</td>
                  <td data-label="Decision"><PlanRequestControls requestId={r.id} email={r.email} /></td>
                </tr>
              ))}
            </DataTable>
          )}
        </section>

        <section>
          <h2 className="text-lg font-semibold">Accounts</h2>
          <form method="get" className="mt-2 flex items-end gap-2 text-sm">
            <label>Email contains <input name="q" defaultValue={q} className={inputClass} /></label>
            <button className={buttonClass} type="submit">Search</button>
          </form>
          <DataTable className="mt-4" testId="accounts" head={["Email", "Account", "Confirmed", "Created", "Plan / role"]}>
            {rows.map((a) => (
              <tr key={a.id} className="border-b border-slate-100 align-middle" data-testid="account-row" data-email={a.email} data-plan={a.plan} data-role={a.role}>
                <td data-label="Email" className="py-2 [overflow-wrap:anywhere]">{a.email}</td>
                <td data-label="Account" className="font-mono text-xs"><Link className="underline" href={`/review/accounts/${a.id}`}>{a.id}</Link>{a.suspendedAt && <span className="ml-1 rounded bg-red-100 px-1 font-sans text-red-800">suspended</span>}</td>
                <td data-label="Confirmed">{a.emailConfirmedAt ? "yes" : "no"}</td>
                <td data-label="Created" className="whitespace-nowrap">{formatUtc(a.createdAt)}</td>
                <td data-label="Plan / role"><AccountControls accountId={a.id} plan={a.plan} role={a.role} liveExchange={a.liveExchangeVerification} /></td>
              </tr>
            ))}
          </DataTable>
          {rows.length === 200 && <p className="mt-2 text-xs text-slate-500">Showing the newest 200; search by email to narrow.</p>}
        </section>

        <section>
          <h2 className="text-lg font-semibold">Signing keys</h2>
          <p className="mt-1 text-sm text-slate-600">Published at <a className="underline" href="/.well-known/jwks.json">/.well-known/jwks.json</a>. The last key signs new records and status answers.</p>
          <table className="mt-3 text-left text-sm [&_td]:pr-6" data-testid="signing-keys">
            <tbody>
              {ring.keys.map((k) => (
                <tr key={k.kid} data-testid="signing-key" data-kid={k.kid} data-active={k === ring.active ? "yes" : "no"}>
                  <td className="py-1 font-mono">{k.kid}</td>
                  <td>{k === ring.active ? <span className="text-emerald-700">active</span> : <span className="text-slate-500">retired (still verifies)</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <RotateKeyForm />
        </section>
      </PortalMain>
    </>
  );
}

/** Beside a plan request: who the account says it is, what it has, and its risk signals (the first 50 requests). */
function PlanRequestReview({ review, accountId, staffId }: { review?: PlanRequestReviewData; accountId: string; staffId: string }) {
  if (!review) return null;
  const first = review.firstApproval;
  return (
    <>
      <div className="text-xs text-slate-700" data-testid="plan-request-account">
        {review.name ? <>calls itself <strong>{review.name}</strong></> : "unnamed"}; {review.records.live} live and {review.records.sandbox} sandbox records
      </div>
      <div className="mt-2">
        <RiskPanel
          risk={review.risk} accountId={accountId} what="plan request"
          firstApproval={first && { by: first.email ?? "the operator", at: first.at, mine: first.staffAccountId === staffId }}
        />
      </div>
    </>
  );
}
