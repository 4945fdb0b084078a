import type { Metadata } from "next";
import Link from "next/link";
import { DomainName, SubjectName } from "@/components/domain-name";
import { SiteFooter, SiteHeader, column } from "@/components/site-chrome";
import { documentedClaimTypes } from "@/lib/claims/registry";
import { getDb } from "@/lib/db/client";
import { directoryQuerySchema, listDirectory } from "@/lib/public/directory/list-directory";
import { WithSpeaker } from "@/components/speaker-name";
import { levelHeadline, speakerName, WHO } from "@/lib/record-model/evidence-level-text";
import { formatUtc } from "@/lib/format/dates";

export const metadata: Metadata = {
  title: "Directory of public records",
  description: "Live, public, active records of Proof Records: who stated what, and how far it was checked.",
};
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const TONE: Record<string, string> = {
  verified: "border-emerald-600 text-emerald-900",
  checked: "border-sky-600 text-sky-950",
  stated: "border-amber-500 text-amber-950",
  lapsed: "border-slate-400 text-slate-800",
  sandbox: "border-violet-500 text-violet-950",
};

/** The public directory: server-rendered, works without JavaScript, only live, public, active records. */
export default async function DirectoryPage({ searchParams }: Props) {
  const sp = await searchParams;
  const q = directoryQuerySchema.parse({ q: one(sp.q), claim_type: one(sp.claim_type), cursor: one(sp.cursor), account: one(sp.account) });
  const { data, nextCursor, organisations } = await listDirectory(await getDb(), q);
  const types = documentedClaimTypes().map((m) => m.type).filter((t) => t !== "*");
  const keep = new URLSearchParams(Object.entries({ q: q.q ?? "", claim_type: q.claim_type ?? "", account: q.account ?? "" }).filter(([, v]) => v));

  return (
    <>
      <SiteHeader />
      <main className={`${column} py-10`}>
        <h1 className="text-2xl font-semibold sm:text-3xl">Directory of public records</h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          Live records their owners made public and that are in force now, newest first. Each says who made the statement and how far
          it was checked; open a certificate for the details and its signed status. Sandbox, private, suspended, revoked and expired
          records are never listed.
        </p>
        <form method="get" className="mt-6 flex flex-wrap items-end gap-3" role="search">
          <label className="min-w-0 flex-[1_1_14rem] text-sm">
            Search subject or claim
            <input name="q" defaultValue={q.q} maxLength={200} className="mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2" placeholder="Acme, example.com, 0x…" aria-describedby="directory-search-hint" />
          </label>
          <label className="min-w-0 max-w-full text-sm">
            Kind of record
            <select name="claim_type" defaultValue={q.claim_type ?? ""} className="mt-1 block w-full max-w-full rounded border border-slate-300 bg-white px-3 py-2">
              <option value="">all</option>
              {types.map((t) => <option key={t} value={t}>{t.replaceAll("_", " ")}</option>)}
            </select>
          </label>
          <button className="rounded bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700" type="submit">Search</button>
          <p id="directory-search-hint" className="-mt-1 basis-full text-xs text-slate-600">Whole words, in any order: a name, a domain, a full address.</p>
        </form>

        {q.account && (
          <p className="mt-6 text-sm text-slate-700" data-testid="directory-account">
            Only the records of one account{data[0] ? <> — <WithSpeaker text={`Stated by ${WHO}`} account={data[0].account} /></> : null}. <Link className="underline" href="/directory">All records</Link>
          </p>
        )}
        {organisations.length > 0 && (
          <section className="mt-8 rounded-lg border border-emerald-600 bg-emerald-50 p-4" aria-labelledby="directory-organisations-title" data-testid="directory-organisations">
            <h2 id="directory-organisations-title" className="text-base font-semibold text-emerald-950">Verified organisations with this name</h2>
            <p className="mt-1 text-sm text-emerald-950">A reviewer verified who these are. Records below from other accounts may only use the name.</p>
            <ul className="mt-3 space-y-2">
              {organisations.map((o) => (
                <li key={o.accountId} className="text-sm [overflow-wrap:anywhere]" data-testid="directory-organisation">
                  <span className="font-semibold text-emerald-900">✓ {o.legalName}</span>
                  {o.lei && <span className="text-slate-700"> · LEI <code>{o.lei}</code></span>}
                  {o.jurisdiction && <span className="text-slate-700"> · {o.jurisdiction}</span>}
                  {" · "}<Link className="underline" href={`/directory?${new URLSearchParams({ account: o.accountId })}`}>its records</Link>
                  {" · "}<Link className="underline" href={`/check?${new URLSearchParams({ operator: o.lei ?? o.legalName })}`}>check a website or payee against it</Link>
                </li>
              ))}
            </ul>
          </section>
        )}
        {data.length === 0 ? (
          <p className="mt-8 text-slate-600" data-testid="directory-empty">No public record matches.</p>
        ) : (
          <ul className="mt-8 space-y-3" data-testid="directory">
            {data.map((r) => {
              const h = levelHeadline({ level: r.evidenceLevel, account: r.account, environment: "live", verified: r.trust.verified });
              return (
                <li key={r.id} className={`min-w-0 rounded-lg border-l-4 bg-white p-4 shadow-sm ring-1 ring-slate-200 ${TONE[h.tone]}`} data-testid="directory-row" data-id={r.id} data-tone={h.tone}>
                  <Link href={`/r/${r.id}`} className="text-lg font-semibold text-slate-900 [overflow-wrap:anywhere] underline decoration-slate-300 underline-offset-4 hover:decoration-slate-900">
                    <SubjectName subject={r.subject} />
                  </Link>
                  <p className="mt-1 line-clamp-2 break-words text-sm text-slate-700">{r.claim}</p>
                  {r.notThisOrganisation && (
                    <p className="mt-2 text-sm font-semibold text-red-800 [overflow-wrap:anywhere]" data-testid="not-this-organisation">
                      ⚠ Not from {r.notThisOrganisation}: that name belongs to a verified organisation, and this record is from another account.
                    </p>
                  )}
                  <p className="mt-2 text-sm font-medium">{h.tone === "verified" ? "✓ " : ""}<WithSpeaker text={h.title} account={r.account} /></p>
                  <p className="mt-1 text-xs text-slate-500 [overflow-wrap:anywhere]">
                    {r.trust.speaker === "verified_organisation" ? <>Stated by <span className="font-semibold text-emerald-800">✓ {speakerName(r.account)}, a verified organisation</span></> : <WithSpeaker text={`Stated by ${WHO}`} account={r.account} />}
                    {r.account.verified_domains.length > 0 && <> · proved domain {r.account.verified_domains.slice(0, 2).map((d, i) => <span key={d}>{i > 0 && ", "}<DomainName domain={d} /></span>)}</>}
                    {" · "}{r.claimType.replaceAll("_", " ")} · issued {formatUtc(r.issuedAt)}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
        <nav className="mt-6 flex gap-4 text-sm" aria-label="Pages">
          {q.cursor && <Link className="underline" href={`/directory${keep.size ? `?${keep}` : ""}`}>First page</Link>}
          {nextCursor && <Link className="underline" href={`/directory?${new URLSearchParams([...keep, ["cursor", nextCursor]])}`} data-testid="directory-next">Next page</Link>}
        </nav>
      </main>
      <SiteFooter />
    </>
  );
}
