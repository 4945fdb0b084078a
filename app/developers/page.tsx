import type { Metadata } from "next";
import { PortalHeader, secondaryButtonClass } from "@/components/portal";
import { getUsage } from "@/lib/accounts/get-usage";
import { listApiKeys } from "@/lib/accounts/manage-account";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { revokeKeyAction } from "./actions";
import { CreateKeyForms, ResendConfirmation, SignOutButton } from "./forms";

export const metadata: Metadata = { title: "Developers", robots: { index: false } };
export const dynamic = "force-dynamic";

const fmt = (d: Date | null) => (d ? d.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "—");
const allowanceText = (n: number | null) => (n === null ? "unlimited" : String(n));

export default async function DevelopersPage() {
  const account = await requireAccount("/developers");
  const db = await getDb();
  const [keys, usage] = await Promise.all([listApiKeys(db, account.id), getUsage(db, { accountId: account.id, plan: account.plan })]);
  const liveBlockedReason = !account.emailConfirmedAt
    ? account.plan === "none"
      ? "Live keys need a confirmed email address and a plan. Confirm your email first; then choose a plan."
      : "Live keys need a confirmed email address. Open the link we mailed you."
    : account.plan === "none"
      ? "Live keys need a plan (starter or growth). Your account has no plan yet."
      : null;

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <main className="mx-auto max-w-4xl space-y-10 px-6 py-10">
        <section>
          <h1 className="text-2xl font-semibold">Developers</h1>
          <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-500">Account</dt><dd><code>{account.id}</code></dd>
            <dt className="text-slate-500">Email</dt>
            <dd>
              {account.email}{" "}
              {account.emailConfirmedAt
                ? <span className="text-emerald-700" data-testid="email-status">confirmed</span>
                : <><span className="text-amber-700" data-testid="email-status">not confirmed</span> <ResendConfirmation /></>}
            </dd>
            <dt className="text-slate-500">Plan</dt><dd data-testid="plan">{account.plan}</dd>
          </dl>
        </section>

        <section>
          <h2 className="text-lg font-semibold">Usage this month ({usage.period})</h2>
          <table className="mt-3 text-sm" data-testid="usage">
            <tbody>
              <tr><td className="pr-6 text-slate-500">Live records</td><td>{usage.live_records.used} of {allowanceText(usage.live_records.allowance)}</td></tr>
              <tr><td className="pr-6 text-slate-500">Reviewed verifications</td><td>{usage.reviewed_verifications.used} of {allowanceText(usage.reviewed_verifications.allowance)}</td></tr>
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-500">Sandbox records and status checks are never counted.</p>
        </section>

        <section>
          <h2 className="text-lg font-semibold">API keys</h2>
          <p className="mt-1 text-sm text-slate-600">
            Send a key as <code>Authorization: Bearer …</code>. Only the first 12 characters and the key id are kept for display; a lost key cannot be shown again — create a new one and revoke the old.
          </p>
          <div className="mt-4"><CreateKeyForms liveBlockedReason={liveBlockedReason} /></div>
          <table className="mt-6 w-full text-left text-sm [&_td]:pr-4 [&_th]:pr-4" data-testid="keys">
            <thead className="border-b border-slate-200 text-slate-500">
              <tr><th className="py-2">Key</th><th>Id</th><th>Environment</th><th>Created</th><th>Last used</th><th>Status</th><th /></tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} className="border-b border-slate-100" data-testid="key-row" data-prefix={k.displayPrefix} data-key-id={k.id}>
                  <td className="py-2 font-mono">{k.displayPrefix}…</td>
                  <td className="font-mono text-xs text-slate-600">{k.id}</td>
                  <td>{k.environment}</td>
                  <td>{fmt(k.createdAt)}</td>
                  <td>{fmt(k.lastUsedAt)}</td>
                  <td>{k.revokedAt ? <span className="text-slate-500">revoked {fmt(k.revokedAt)}</span> : <span className="text-emerald-700">active</span>}</td>
                  <td className="text-right">
                    {!k.revokedAt && (
                      <form action={revokeKeyAction}>
                        <input type="hidden" name="keyId" value={k.id} />
                        <button className={secondaryButtonClass} type="submit" aria-label={`Revoke ${k.displayPrefix}`}>Revoke</button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </main>
    </>
  );
}
