import type { Metadata } from "next";
import { ConfirmActionForm } from "@/components/confirm-action";
import { CopyButton } from "@/components/copy-button";
import { Alert, DataTable, PortalHeader, PortalMain } from "@/components/portal";
import Link from "next/link";
import { loadAccountProfiles } from "@/lib/accounts/account-profile";
import { getUsage } from "@/lib/accounts/get-usage";
import { liveBlockedReason as liveBlockedReasonOf } from "@/lib/accounts/live-access";
import { listApiKeys } from "@/lib/accounts/manage-account";
import { revokedAtConfirmation } from "@/lib/accounts/revoked-at-confirmation";
import type { Environment } from "@/lib/accounts/types";
import { requireAccount } from "@/lib/auth/session";
import { formatUtc } from "@/lib/format/dates";
import { NameForm } from "./name-form";
import { getDb } from "@/lib/db/client";
import { listMandateKeys } from "@/lib/mandates/manage-mandate-keys";
import { SUBSCRIBABLE_EVENTS } from "@/lib/outbox/write-event";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { listDeliveries, listWebhooks } from "@/lib/webhooks/manage-webhooks";
import { deleteWebhookAction, revokeKeyAction, revokeMandateKeyAction, signOutEverywhereAction } from "./actions";
import { latestPlanRequest, REQUESTABLE_PLANS, type PlanRequest } from "@/lib/accounts/plan-requests";
import {
  CreateKeyForms, MandateKeyForm, PlanRequestForm, ReplayButton, ResendConfirmation, RotateSecretForm, SignOutButton, TestEventButton, WebhookForm,
} from "./forms";

export const metadata: Metadata = { title: "Developers", robots: { index: false } };
export const dynamic = "force-dynamic";

const allowanceText = (n: number | null) => (n === null ? "unlimited" : String(n));
const ENVIRONMENTS: Environment[] = ["sandbox", "live"];
const DELIVERIES_SHOWN = 5;
const plural = (n: number, what: string) => (n === 0 ? "" : `${n} ${what}${n === 1 ? "" : "s"}`);

export default async function DevelopersPage() {
  const account = await requireAccount("/developers");
  const db = await getDb();
  const [keys, usage, mandateLists, webhookLists, revoked, profiles, planRequest] = await Promise.all([
    listApiKeys(db, account.id),
    getUsage(db, { accountId: account.id, plan: account.plan }),
    // Both environments are shown; each list is the API's own query under the session's account.
    Promise.all(ENVIRONMENTS.map((env) => listMandateKeys(db, portalAuth(account, env)))),
    Promise.all(ENVIRONMENTS.map((env) => listWebhooks(db, portalAuth(account, env)))),
    revokedAtConfirmation(db, account),
    loadAccountProfiles(db, [account.id]),
    latestPlanRequest(db, account.id),
  ]);
  const organisation = profiles.get(account.id)?.organisation ?? null;
  const mandateKeys = mandateLists.flatMap((l) => l.data);
  const webhooks = webhookLists.flatMap((l) => l.data);
  // Each endpoint's newest deliveries with their attempts: the API's own query (GET /api/v1/webhooks/{id}/deliveries).
  const deliveries = new Map(await Promise.all(webhooks.map(async (w) =>
    [w.id, (await listDeliveries(db, portalAuth(account, w.environment), w.id, DELIVERIES_SHOWN)).data] as const)));
  const liveBlockedReason = liveBlockedReasonOf(account);

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-10">
        <section>
          <h1 className="text-2xl font-semibold">Developers</h1>
          <dl className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] gap-x-6 gap-y-2 text-sm">
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
          {revoked && (
            <Alert kind="info" id="revoked-at-confirmation">
              <span data-testid="revoked-at-confirmation">
                When this address was confirmed through a mailed sign-in, password-reset or confirmation link ({formatUtc(revoked.at)}), everything
                made in the account before was revoked, in case someone else had signed up with your address:{" "}
                {[plural(revoked.apiKeys, "API key"), plural(revoked.mandateKeys, "mandate key"), plural(revoked.webhooks, "webhook destination")]
                  .filter(Boolean).join(", ")}
                , and every session and password from before.
                {account.passwordHash === null && <> To sign in with a password, set one through <Link className="underline" href="/reset-password">Forgot password?</Link></>}{" "}
                Create new keys below if you need them.
              </span>
            </Alert>
          )}
        </section>

        <GoingLive account={account} request={planRequest} />

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

        <Section title="Who your records say is speaking" intro={<>
            Every certificate and signed status names the account that made the statement: this name (your own word; it is not checked) and the domains you proved with live domain records. Records issued from now on sign it in.
          </>}>
          <NameForm current={account.name} locked={organisation && { legalName: organisation.legal_name, status: organisation.status }} />
        </Section>

        <Section title="API keys" intro={<>
            Send a key as <code>Authorization: Bearer …</code>. Only its prefix and last four characters (<code>prs_live_…Wx3k</code>) and the key id are kept for display; a lost key cannot be shown again — create a new one and revoke the old. Keys made before the last four were kept show <code>????</code>.
          </>}>
          <div className="mt-4"><CreateKeyForms liveBlockedReason={liveBlockedReason} /></div>
          <DataTable className="mt-6" testId="keys" head={["Key", "Id", "Environment", "Created", "Last used", "Status", ""]}>
            {keys.map((k) => (
              <tr key={k.id} className="border-b border-slate-100" data-testid="key-row" data-prefix={k.keyPrefix} data-last-four={k.lastFour ?? ""} data-key-id={k.id}>
                <td data-label="Key" className="py-2">
                  <div className="whitespace-nowrap font-mono" data-testid="key-display">{k.display}</div>
                  <div className="text-xs text-slate-500" data-testid="key-scopes">{k.scopes ? `only ${k.scopes.join(", ")}` : "all scopes"}</div>
                </td>
                <td data-label="Id" className="font-mono text-xs text-slate-600">{k.id}</td>
                <td data-label="Environment">{k.environment}</td>
                <td data-label="Created">{formatUtc(k.createdAt)}</td>
                <td data-label="Last used">{formatUtc(k.lastUsedAt)}</td>
                <td data-label="Status"><KeyStatus revokedAt={k.revokedAt} /></td>
                <td className="text-right">
                  {!k.revokedAt && (
                    <ConfirmActionForm action={revokeKeyAction} fields={{ keyId: k.id }} trigger="Revoke" triggerLabel={`Revoke ${k.display}`}
                      question={<>Revoke <code>{k.display}</code> (<code>{k.id}</code>)? Requests with this key are refused at once. This cannot be undone.</>}
                      confirm="Yes, revoke" />
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        </Section>

        <Section title="Mandate keys" intro={<>
            The public halves of the Ed25519 key pairs with which you sign your agents&apos; mandates. Records cite a key by its id
            (<code>principal_key_id</code>); anyone can read a key, its status and your account&apos;s name (verified or not) back at{" "}
            <code>/keys/{account.id}/&lt;key id&gt;</code>. Key ids are unique within your account (another account may use the same id
            for its own key: it never signs for you) and never reused, also after a key is revoked. The API does the same with{" "}
            <code>POST /api/v1/mandate-keys</code>.
          </>}>
          <div className="mt-4"><MandateKeyForm liveBlockedReason={liveBlockedReason} /></div>
          {mandateKeys.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600" data-testid="no-mandate-keys">No mandate keys yet.</p>
          ) : (
            <DataTable className="mt-6" testId="mandate-keys" head={["Key id", "Public key", "Environment", "Created", "Status", ""]}>
              {mandateKeys.map((k) => (
                <tr key={k.key_id} className="border-b border-slate-100" data-testid="mandate-key-row" data-key-id={k.key_id}>
                  <td data-label="Key id" className="py-2 font-mono text-xs">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link id={`mandate-key-${k.key_id}`} className="underline" href={`/keys/${encodeURIComponent(account.id)}/${encodeURIComponent(k.key_id)}`} title="Public read-back">{k.key_id}</Link>
                      <CopyButton value={k.key_id} label={`key id ${k.key_id}`} targetId={`mandate-key-${k.key_id}`} />
                    </div>
                  </td>
                  <td data-label="Public key" className="font-mono text-xs text-slate-600" title={k.public_key}>{k.public_key.slice(0, 12)}…</td>
                  <td data-label="Environment">{k.environment}</td>
                  <td data-label="Created" className="whitespace-nowrap">{formatUtc(k.created_at)}</td>
                  <td data-label="Status" data-testid="mandate-key-status">
                    <KeyStatus revokedAt={k.revoked_at} />
                  </td>
                  <td className="text-right">
                    {!k.revoked_at && (
                      <ConfirmActionForm action={revokeMandateKeyAction} fields={{ key_id: k.key_id, environment: k.environment }}
                        trigger="Revoke" triggerLabel={`Revoke mandate key ${k.key_id}`}
                        question={<>Revoke mandate key <code>{k.key_id}</code>? Its status turns revoked for everyone who checks it, and the id is never reused.</>}
                        confirm="Yes, revoke" />
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </Section>

        <Section title="Webhook destinations" intro={<>
            Events of the chosen environment are POSTed to these URLs, signed per Standard Webhooks with the destination&apos;s secret.
            Destinations must be <code>https://</code> and resolve to public addresses. <strong>Send test event</strong> posts a{" "}
            <code>webhook.test</code> event to one destination; each destination&apos;s {DELIVERIES_SHOWN} newest deliveries show below it with
            every attempt (HTTP status, time taken, error, the start of the answer); resend one to send its event again with the same
            <code> webhook-id</code>. Rotating a secret shows the new one once and keeps the old one signing beside it for the time you
            choose. The full history (<code>/api/v1/events</code>) and re-enabling are in the API.
          </>}>
          <div className="mt-4"><WebhookForm liveBlockedReason={liveBlockedReason} events={SUBSCRIBABLE_EVENTS} /></div>
          {webhooks.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600" data-testid="no-webhooks">No webhook destinations yet.</p>
          ) : (
            <DataTable className="mt-6" testId="webhooks" head={["URL", "Events", "Environment", "Created", "Status", ""]}>
              {webhooks.map((w) => [
                <tr key={w.id} className="align-top" data-testid="webhook-row" data-webhook-id={w.id}>
                  <td data-label="URL" className="max-w-xs break-all py-2 font-mono text-xs">
                    {w.url}
                    {w.description && <div className="font-sans text-slate-500">{w.description}</div>}
                  </td>
                  <td data-label="Events" className="text-xs">{w.events.length === SUBSCRIBABLE_EVENTS.length ? "all" : w.events.join(", ")}</td>
                  <td data-label="Environment">{w.environment}</td>
                  <td data-label="Created" className="whitespace-nowrap">{formatUtc(w.created_at)}</td>
                  <td data-label="Status">
                    <div>
                      {w.status === "enabled"
                        ? <span className="text-emerald-700">enabled</span>
                        : <span className="text-amber-700" title={w.disabled_reason ?? undefined}>disabled</span>}
                      {w.previous_secret_expires_at && (
                        <div className="text-xs text-slate-500" data-testid="webhook-rotation">old secret signs until {formatUtc(w.previous_secret_expires_at)}</div>
                      )}
                    </div>
                  </td>
                  <td className="text-right">
                    <div className="flex flex-wrap items-start justify-end gap-2">
                      <TestEventButton id={w.id} environment={w.environment} url={w.url} />
                      <RotateSecretForm id={w.id} environment={w.environment} url={w.url} />
                      <ConfirmActionForm action={deleteWebhookAction} fields={{ id: w.id, environment: w.environment }}
                        trigger="Delete" triggerLabel={`Delete webhook ${w.url}`}
                        question="Delete this destination? Events are no longer sent to it; its signing secret is gone for good."
                        confirm="Yes, delete" />
                    </div>
                  </td>
                </tr>,
                <tr key={`${w.id}-deliveries`} className="border-b border-slate-100" data-testid="webhook-deliveries" data-webhook-id={w.id}>
                  <td colSpan={6} className="pb-3">
                    <RecentDeliveries deliveries={deliveries.get(w.id) ?? []} webhook={w} />
                  </td>
                </tr>,
              ])}
            </DataTable>
          )}
        </Section>

        <Section title="Sessions" intro={<>
            Signing out ends this browser&apos;s session. To end every session of this account — on other browsers and devices
            too, this one included — sign out everywhere. Your password and API keys stay as they are.
          </>}>
          <div className="mt-4">
            <ConfirmActionForm action={signOutEverywhereAction} fields={{}} trigger="Sign out everywhere"
              triggerLabel="Sign out everywhere" question="End every session of this account, this one included?"
              confirm="Yes, sign out everywhere" testId="sign-out-everywhere" />
          </div>
        </Section>
      </PortalMain>
    </>
  );
}

/**
 * What live needs (a confirmed address, a plan) ticked off, the newest plan request's state,
 * and the form to ask for a plan (no payment provider: an admin approves it in /admin).
 */
function GoingLive({ account, request }: { account: { emailConfirmedAt: Date | null; plan: string }; request: PlanRequest | null }) {
  const live = account.emailConfirmedAt && account.plan !== "none";
  const waiting = request?.status === "pending";
  const blocked = !account.emailConfirmedAt
    ? "Confirm your email address first: open the link we mailed you, or send it again above."
    : waiting ? "Your request is waiting for an admin; you can send another once it is decided." : null;
  const Check = ({ ok, children, testId }: { ok: boolean; children: React.ReactNode; testId: string }) => (
    <li className="flex gap-2" data-testid={testId} data-ok={ok ? "yes" : "no"}>
      <span aria-hidden className={ok ? "text-emerald-700" : "text-amber-700"}>{ok ? "✓" : "○"}</span>
      <span>{children}</span>
    </li>
  );
  return (
    <Section title="Going live" intro={<>
        Sandbox is free and never counted. Live records — public, green on certificates once your organisation is verified — need a
        confirmed email address and a plan. Choose a plan and send the request; an admin approves it (there is no card to enter) and we
        mail you the answer.
      </>}>
      <ul className="mt-3 space-y-1 text-sm" data-testid="live-checklist">
        <Check ok={Boolean(account.emailConfirmedAt)} testId="live-needs-email">
          Confirmed email address{account.emailConfirmedAt ? "" : ": not yet — open the link we mailed you"}
        </Check>
        <Check ok={account.plan !== "none"} testId="live-needs-plan">
          A plan{account.plan !== "none" ? `: ${account.plan}` : ": none yet"}
        </Check>
      </ul>
      {live && <p className="mt-2 text-sm text-emerald-800" data-testid="live-ready">Your account may work in live: create a live key below.</p>}
      {request && (
        <p className="mt-3 text-sm" data-testid="plan-request-state" data-status={request.status}>
          {request.status === "pending" && <>Your request for the <strong>{request.plan}</strong> plan, sent {formatUtc(request.createdAt)}, is <strong className="text-amber-800">waiting for an admin</strong>. We mailed you a copy and will mail you the decision.</>}
          {request.status === "approved" && <>Your request for the <strong>{request.plan}</strong> plan was <strong className="text-emerald-800">approved</strong> {formatUtc(request.decidedAt)}.</>}
          {request.status === "declined" && <>Your request for the <strong>{request.plan}</strong> plan was <strong className="text-red-800">declined</strong> {formatUtc(request.decidedAt)}. Reason: <span data-testid="plan-request-reason">{request.reason}</span></>}
        </p>
      )}
      {!waiting && account.plan !== "growth" && (
        <div className="mt-4"><PlanRequestForm blocked={blocked} plans={REQUESTABLE_PLANS} current={account.plan} /></div>
      )}
    </Section>
  );
}

type Delivery = Awaited<ReturnType<typeof listDeliveries>>["data"][number];

/** An endpoint's newest deliveries, each with its attempts (what the API's deliveries list answers). */
function RecentDeliveries({ deliveries, webhook }: { deliveries: Delivery[]; webhook: { id: string; environment: string; status: string } }) {
  if (deliveries.length === 0) return <p className="text-xs text-slate-500" data-testid="no-deliveries">No deliveries yet.</p>;
  const tone = { succeeded: "text-emerald-700", pending: "text-amber-700", failed: "text-red-700" } as Record<string, string>;
  return (
    <details className="text-xs" open>
      <summary className="cursor-pointer text-slate-600">Recent deliveries</summary>
      <ul className="mt-1 space-y-1">
        {deliveries.map((d) => (
          <li key={d.id} data-testid="delivery" data-status={d.status} data-event-type={d.event_type} className="[overflow-wrap:anywhere]">
            <code>{d.event_type}</code> <span className={tone[d.status] ?? ""}>{d.status}</span>{" "}
            <span className="text-slate-500">{formatUtc(d.created_at)}</span>
            {d.next_attempt_at && <span className="text-slate-500"> · next attempt {formatUtc(d.next_attempt_at)}</span>}
            {webhook.status === "enabled" && (
              <ReplayButton id={webhook.id} environment={webhook.environment} eventId={d.event_id} eventType={d.event_type} />
            )}
            {d.attempts.length > 0 && (
              <ol className="ml-4 list-decimal text-slate-600">
                {d.attempts.map((a, i) => (
                  <li key={i} data-testid="delivery-attempt">
                    {formatUtc(a.at)}: {a.status_code ? `HTTP ${a.status_code}` : "no answer"} in {a.latency_ms} ms{a.error ? ` — ${a.error}` : ""}
                    {a.response ? <span className="text-slate-500" data-testid="delivery-response"> — answered <q className="font-mono">{a.response.length > 120 ? `${a.response.slice(0, 120)}…` : a.response}</q></span> : null}
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A key's standing in its table: active, or when it was revoked. */
function KeyStatus({ revokedAt }: { revokedAt: Date | string | null }) {
  return revokedAt ? <span className="text-slate-500">revoked {formatUtc(revokedAt)}</span> : <span className="text-emerald-700">active</span>;
}

/** A part of the portal page: its heading, a sentence or two on what it is, then its form and table. */
function Section({ title, intro, children }: { title: string; intro: React.ReactNode; children: React.ReactNode }) {
  return (
    <section>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">{intro}</p>
      {children}
    </section>
  );
}
