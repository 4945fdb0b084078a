import type { Metadata } from "next";
import Link from "next/link";
import { domainChallenges } from "@/drizzle/schema";
import { CopyButton } from "@/components/copy-button";
import { Alert, PortalHeader, PortalMain } from "@/components/portal";
import { requireAccount } from "@/lib/auth/session";
import { findChallenge } from "@/lib/challenges/challenges";
import { getDb } from "@/lib/db/client";
import { EVM_NETWORKS } from "@/lib/proofs/wallet-address";
import { liveBlockedReason } from "@/lib/accounts/live-access";
import { portalAuth } from "@/lib/record-model/portal-auth";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../developers/forms";
import { DomainCheckForm, DomainRequestForm } from "./domain-forms";
import { WalletProof } from "./wallet-proof";
import { DOMAIN_CHALLENGE_ID_RE } from "@/lib/ids";

export const metadata: Metadata = { title: "Proofs", robots: { index: false } };
export const dynamic = "force-dynamic";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ProofsPage({ searchParams }: Props) {
  const account = await requireAccount("/proofs");
  const sp = await searchParams;
  const blocked = liveBlockedReason(account, "Live proofs");
  const environment = one(sp.environment) === "live" && !blocked ? "live" : "sandbox";
  const challengeId = one(sp.challenge);
  const challenge = challengeId && DOMAIN_CHALLENGE_ID_RE.test(challengeId)
    ? await findChallenge(await getDb(), domainChallenges, portalAuth(account, environment), challengeId)
    : null;
  const now = Date.now();
  // The address the domain was taken from, when one was pasted (requestDomainChallengeAction).
  const pastedFrom = one(sp.from)?.slice(0, 300);

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-10">
        <section>
          <h1 className="text-2xl font-semibold">Proofs</h1>
          <p className="mt-2 text-sm text-slate-700">
            Prove that you control a domain or a wallet. Each proof becomes a signed record with a certificate.
          </p>
          <div className="mt-4 flex flex-wrap items-center gap-3 text-sm" data-testid="environment">
            <span className="text-slate-500">Environment:</span>
            <EnvLink env="sandbox" current={environment} />
            {blocked
              ? <span className="text-slate-400" title={blocked}>live</span>
              : <EnvLink env="live" current={environment} />}
          </div>
          {environment === "sandbox" && (
            <p className="mt-2 text-xs text-slate-600" data-testid="environment-note">
              Sandbox proofs run the same checks but issue test records marked &ldquo;Sandbox — not verified&rdquo;; they are free and never counted.
              {blocked ? ` ${blocked}` : ""}
            </p>
          )}
          {environment === "live" && (
            <p className="mt-2 text-xs text-slate-600" data-testid="environment-note">Live proofs issue real records and count against your plan&apos;s monthly allowance.</p>
          )}
        </section>

        <section id="domain">
          <h2 className="text-lg font-semibold">Domain</h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-700">
            Request a challenge, publish its TXT record in your domain&apos;s DNS, then check it. The challenge lives one hour,
            can be checked as often as needed until a record issues, and works for this account and environment only.
          </p>
          {/* A new challenge starts a fresh form: what was refused before it is no longer shown. */}
          <DomainRequestForm key={challenge?.id ?? "none"} environment={environment} />
          {challengeId && !challenge && (
            <Alert kind="error">No such challenge for this account in {environment}. Request a new one.</Alert>
          )}
          {challenge && challenge.usedAt && (
            <Alert kind="info">
              <span data-testid="challenge-used">
                This challenge for {challenge.domain} has been used by record{" "}
                <Link className="underline" href={`/records/${challenge.usedByRecord}`}>{challenge.usedByRecord}</Link>
                {" "}(<Link className="underline" href={`/r/${challenge.usedByRecord}`}>certificate</Link>). Request a new one to prove it again.
              </span>
            </Alert>
          )}
          {challenge && !challenge.usedAt && challenge.expiresAt.getTime() <= now && (
            <Alert kind="error">This challenge for {challenge.domain} expired at {formatUtc(challenge.expiresAt)}. Request a new one.</Alert>
          )}
          {challenge && !challenge.usedAt && challenge.expiresAt.getTime() > now && (
            <div key={challenge.id} className="mt-6 rounded border border-slate-200 bg-white p-4" data-testid="domain-challenge" data-id={challenge.id}>
              {pastedFrom && (
                <p className="mb-3 rounded bg-sky-50 p-2 text-sm text-sky-900 [overflow-wrap:anywhere]" data-testid="took-host">
                  You entered a web address, <code>{pastedFrom}</code>: we took its host, <strong>{challenge.domain}</strong>, as the domain to prove.
                  {challenge.domain.startsWith("www.") && <> A proof of {challenge.domain} does not cover {challenge.domain.slice(4)}: to prove that, request a challenge for it.</>}
                </p>
              )}
              <p className="text-sm">
                Add this TXT record for <strong>{challenge.domain}</strong> at your DNS provider (other TXT records at the same name may stay):
              </p>
              <dl className="mt-3 grid grid-cols-[max-content_minmax(0,1fr)] [&_dd]:[overflow-wrap:anywhere] items-center gap-x-4 gap-y-3 text-sm">
                <dt className="text-slate-500">Type</dt><dd><code>TXT</code></dd>
                <dt className="text-slate-500">Name</dt>
                <dd className="flex flex-wrap items-center gap-3">
                  <code id="txt-name" className="break-all rounded bg-slate-50 px-2 py-1" data-testid="txt-name">{challenge.txtName}</code>
                  <CopyButton value={challenge.txtName} label="TXT name" targetId="txt-name" />
                </dd>
                <dt className="text-slate-500">Value</dt>
                <dd className="flex flex-wrap items-center gap-3">
                  <code id="txt-value" className="break-all rounded bg-slate-50 px-2 py-1" data-testid="txt-value">{challenge.txtValue}</code>
                  <CopyButton value={challenge.txtValue} label="TXT value" targetId="txt-value" />
                </dd>
                <dt className="text-slate-500">Expires</dt><dd data-testid="challenge-expires">{formatUtc(challenge.expiresAt)}</dd>
              </dl>
              <p className="mt-3 text-xs text-slate-600">
                Some DNS providers add your domain to the name themselves: then enter only the part before it. Check what resolvers see with:
              </p>
              <p className="mt-1 flex flex-wrap items-center gap-3 text-xs">
                <code id="dig-command" className="break-all rounded bg-slate-50 px-2 py-1">dig +short TXT {challenge.txtName}</code>
                <CopyButton value={`dig +short TXT ${challenge.txtName}`} label="dig command" targetId="dig-command" />
              </p>
              <p className="mt-2 text-xs text-slate-600">
                After issue, keep the record: it is re-checked periodically and the proof is suspended when it is gone.
              </p>
              <DomainCheckForm challengeId={challenge.id} environment={environment} />
            </div>
          )}
        </section>

        <section id="wallet">
          <h2 className="text-lg font-semibold">Wallet</h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-700">
            Connect a browser wallet, request a challenge for an EVM network and sign its message. The signature proves control of
            the key behind the address. This page never asks for a private key or a recovery phrase — never type them into any website.
          </p>
          <WalletProof environment={environment} networks={EVM_NETWORKS} />
        </section>
      </PortalMain>
    </>
  );
}

function EnvLink({ env, current }: { env: "sandbox" | "live"; current: string }) {
  return env === current
    ? <span className="rounded bg-slate-900 px-2 py-0.5 text-white" aria-current="page">{env}</span>
    : <Link className="underline" href={`/proofs?environment=${env}`}>{env}</Link>;
}
