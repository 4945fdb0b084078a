import type { AccountProfile } from "@/lib/accounts/account-profile";
import { DomainName } from "@/components/domain-name";
import { SelfName } from "@/components/speaker-name";
import { formatUtc, formatUtcDay } from "@/lib/format/dates";
import type { Check } from "@/lib/trust/checks";
import type { Trust } from "@/lib/trust/decide";

/**
 * "Who said it" (CONTRACT "The speaking account"): a verified organisation by its legal name,
 * LEI and since when; any other account as an account calling itself a name — never the plain
 * name beside a green mark.
 */
export function Speaker({ account, trust }: { account: AccountProfile; trust: Trust }) {
  const org = account.organisation;
  const domainChip = trust.speaker === "verified_organisation"
    ? "bg-emerald-100 text-emerald-900 ring-emerald-600"
    : "bg-slate-100 text-slate-800 ring-slate-400";
  return (
    <div className="mt-4 border-t border-slate-200 pt-4" data-testid="speaker" data-speaker={trust.speaker}>
      <p className="text-sm text-slate-500">Statement made by</p>
      {trust.speaker === "verified_organisation" && org ? (
        <>
          <p className="text-lg font-semibold [overflow-wrap:anywhere]">{org.legal_name}</p>
          <p className="mt-1 inline-flex flex-wrap items-center gap-2 text-sm">
            <span className="rounded-full bg-emerald-700 px-2.5 py-0.5 text-xs font-semibold text-white">✓ Verified organisation</span>
            <span className="text-slate-700">
              {org.lei ? <>LEI <a className="font-mono underline" href={`https://search.gleif.org/#/record/${org.lei}`}>{org.lei}</a> · </> : <>verified from documents · </>}
              {org.jurisdiction ? `${org.jurisdiction} · ` : ""}since {formatUtcDay(org.verified_at)}
            </span>
          </p>
        </>
      ) : (
        <div className="mt-1 rounded-md border border-amber-400 bg-amber-50 p-3" data-testid="self-declared">
          <p className="text-lg font-semibold [overflow-wrap:anywhere]">
            {account.name ? <>An account calling itself “<SelfName name={account.name} />”</> : <span className="italic">An unnamed account</span>}
          </p>
          <p className="text-sm text-amber-950">
            {org?.status === "lapsed"
              ? "Organisation verification lapsed: the LEI register no longer lists the entity as active."
              : account.name
                ? "Name not verified — it is the account's own word. Proof Records has not confirmed who is behind it."
                : "The account set no name and is not a verified organisation."}
          </p>
        </div>
      )}
      {account.verified_domains.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="Domains this account proved">
          {account.verified_domains.map((d) => (
            <li key={d} className={`rounded-full px-3 py-1 text-xs font-medium ring-1 ${domainChip}`}>proved domain <DomainName domain={d} /></li>
          ))}
        </ul>
      )}
    </div>
  );
}

const BY: Record<Check["by"], string> = {
  source: "checked by Proof Records against",
  signature: "checked by Proof Records: a signature verified",
  reviewer: "confirmed by a Proof Records reviewer",
  account: "only stated by the account — not checked",
};

/** "What was checked" (CONTRACT "What was checked"): each fact, who checked it, on what, when. */
export function Checks({ checks }: { checks: readonly Check[] }) {
  if (checks.length === 0) return null;
  return (
    <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="checks">
      <h2 className="font-semibold">What was checked</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {checks.map((c, i) => (
          <li key={i} data-by={c.by}>
            <span className="font-medium">{c.fact.replaceAll("_", " ")}</span>
            {" — "}{BY[c.by]}{c.source ? (c.by === "source" ? ` ${c.source}` : ` (${c.source})`) : ""}
            <span className="text-slate-500">, {formatUtc(c.at)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
