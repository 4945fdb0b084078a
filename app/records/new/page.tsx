import type { Metadata } from "next";
import Link from "next/link";
import { PortalHeader, PortalMain } from "@/components/portal";
import { liveBlockedReason } from "@/lib/accounts/live-access";
import { requireAccount } from "@/lib/auth/session";
import { claimFormSpecs } from "@/lib/claims/form-spec";
import { getEnv } from "@/lib/env";
import { EVM_NETWORKS } from "@/lib/proofs/wallet-address";
import { SignOutButton } from "../../developers/forms";
import { newFormKey } from "./form-key";
import { NewRecordForm } from "./new-record-form";

export const metadata: Metadata = { title: "New record", robots: { index: false } };
// Every view renders a fresh idempotency key into the form.
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

export default async function NewRecordPage({ searchParams }: Props) {
  const account = await requireAccount("/records/new");
  const sp = await searchParams;
  const specs = claimFormSpecs(getEnv().DEFAULT_RECORD_VALIDITY_DAYS);
  const asked = one(sp.type);
  const initialChoice = specs.find((s) => s.key === asked && !s.href)?.key;

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-6">
        <p className="text-sm"><Link className="underline" href="/records">← Records</Link></p>
        <section>
          <h1 className="text-2xl font-semibold">New record</h1>
          <p className="mt-2 max-w-2xl text-sm text-slate-700">
            Choose what the record states. Some kinds are checked against a source at once, some by a reviewer, and a
            statement of your own is signed as yours and says it was not checked. The same rules apply as through the API.
          </p>
        </section>
        <NewRecordForm
          specs={specs}
          initialChoice={initialChoice}
          idempotencyKey={newFormKey()}
          liveBlockedReason={liveBlockedReason(account, "Live records")}
          nowUtc={new Date().toISOString().slice(0, 16)}
          walletNetworks={EVM_NETWORKS}
        />
      </PortalMain>
    </>
  );
}
