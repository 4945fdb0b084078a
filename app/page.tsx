import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { LookupAnswerView } from "@/components/lookup-answer";
import { SiteFooter, SiteHeader, column } from "@/components/site-chrome";
import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/rate-limit";
import { lookupAnswer, type LookupAnswer } from "@/lib/public/lookup/answer-lookup";
import { lookupLimiter } from "@/lib/public/lookup/limiter";
import { HOME_QUERY_MAX, readHomeQuery } from "@/lib/public/lookup/read-home-query";

export const metadata: Metadata = {
  title: { absolute: "Proof Records — signed records anyone can check" },
  description:
    "Issue signed, verifiable records about your company, domain, wallet and payments. Anyone can check them on a public certificate page, by QR code or through the signed status.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const cardLink = "font-medium text-slate-900 underline decoration-slate-300 underline-offset-4 hover:decoration-slate-900";

export default async function Home({ searchParams }: Props) {
  // The one box is a plain GET form to this page: it works without JavaScript. `record` is its
  // name before it took more than record ids (old links keep working).
  const sp = await searchParams;
  const asked = one(sp.q) ?? one(sp.record);
  const typed = asked === undefined ? undefined : asked.slice(0, HOME_QUERY_MAX + 1);
  const read = typed === undefined ? null : readHomeQuery(typed);
  if (read?.kind === "record") redirect(`/r/${read.id}`);
  // A company's name or LEI: the full check answers who that is (its operator part).
  if (read?.kind === "operator") redirect(`/check?${new URLSearchParams({ operator: read.operator })}`);
  let answer: LookupAnswer | null = null;
  let limited = false;
  if (read?.kind === "lookup") {
    // The lookup's own allowance (30 a minute per client address), as /check and the API.
    const hit = await lookupLimiter().hit(`lookup:${clientAddress(await headers())}`);
    if (hit.ok) answer = await lookupAnswer(await getDb(), read.request);
    else limited = true;
  }
  const refused = read?.kind === "refused" ? read.message : limited ? "Too many checks from your network in the last minute; wait a minute and try again." : null;

  return (
    <>
      <SiteHeader />
      <main>
        <section className={`${column} pt-10 pb-6 sm:pt-14`}>
          <h1 className="max-w-3xl text-3xl font-semibold tracking-tight text-balance sm:text-5xl">
            Signed records that anyone can check.
          </h1>
          <p className="mt-4 max-w-2xl text-base text-slate-700 sm:text-lg">
            A company states something about itself — its registration, its domain, its wallet, a payment — and
            Proof Records checks it as far as a source or a reviewer can, signs it and gives it a public certificate.
            Whoever is shown the record sees who said what, how far it was checked, and whether it is still valid.
          </p>
        </section>

        <section aria-labelledby="check-title" id="check" className={`${column} scroll-mt-4`}>
          <div className="rounded-lg border-l-8 border-emerald-600 bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
            <h2 id="check-title" className="text-lg font-semibold">Check before you pay</h2>
            <p className="mt-1 text-sm text-slate-600">
              Asked to pay a website, an IBAN or a wallet, or shown a certificate? See what is on record — and who stands behind it.
            </p>
            <form action="/" method="get" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start" data-testid="home-lookup-form">
              <div className="min-w-0 flex-1">
                <label htmlFor="q" className="block text-sm font-medium text-slate-800">A company name or LEI, record id, IBAN, wallet, website or listing link</label>
                <input
                  id="q"
                  name="q"
                  defaultValue={typed}
                  required
                  maxLength={HOME_QUERY_MAX}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="Seaview Ltd, PRS-…, DE89 3704 …, 0x…, example.com"
                  aria-invalid={refused !== null || undefined}
                  aria-describedby={refused !== null ? "q-error" : undefined}
                  className={`mt-1 block w-full rounded border bg-white px-3 py-2 font-mono text-slate-900 focus:outline-none ${refused !== null ? "border-red-500 focus:border-red-600" : "border-slate-300 focus:border-slate-500"}`}
                />
                {refused !== null && (
                  <p id="q-error" role="alert" className="mt-2 text-sm text-red-700">{refused}</p>
                )}
              </div>
              <button type="submit" className="rounded bg-slate-900 px-5 py-2.5 font-medium text-white hover:bg-slate-700 sm:mt-6">
                Look it up
              </button>
            </form>
            {answer && <LookupAnswerView answer={answer} />}
            <p className="mt-4 text-sm text-slate-600">
              Know who you are paying? <a href="/check" className="font-medium text-emerald-800 underline" data-testid="home-check-link">Check an operator, website and payee together</a>.
            </p>
          </div>
        </section>

        <div className={`${column} mt-8 flex flex-wrap gap-3`}>
          <Link href="/signup" className="rounded bg-slate-900 px-5 py-2.5 font-medium text-white hover:bg-slate-700">
            Create an account
          </Link>
          <a href="/docs" className="rounded border border-slate-300 bg-white px-5 py-2.5 font-medium text-slate-900 hover:bg-slate-100">
            Read the docs
          </a>
        </div>

        <section aria-labelledby="who-title" className={`${column} mt-14`}>
          <h2 id="who-title" className="text-2xl font-semibold tracking-tight">What it does for you</h2>
          <div className="mt-6 grid gap-5 md:grid-cols-3">
            <Audience
              id="customers"
              title="Companies and developers"
              lead="Issue signed, verifiable records about your company, your domains, your wallets and your payments."
              points={[
                "Company status and LEI identity, checked against the register",
                "Domains by a DNS TXT challenge, wallets (EVM, bitcoin, solana) by a signature",
                "In the browser or through the API, with sandbox and live keys, webhooks and idempotent retries",
              ]}
            >
              <Link href="/signup" className={cardLink}>Sign up</Link>
              <Link href="/developers" className={cardLink}>Developer portal</Link>
              <a href="/docs" className={cardLink}>API reference</a>
            </Audience>
            <Audience
              id="reviewers"
              title="Reviewers"
              lead="Confirm what no connector can check automatically."
              points={[
                "Claims without an automatic source wait in a queue, oldest first",
                "Each submission shows its evidence, earlier decisions on the same subject and a checklist",
                "Approve and the record is issued as confirmed by a reviewer; reject with a reason the customer sees",
              ]}
            >
              <Link href="/review" className={cardLink}>Reviewer queue</Link>
              <Link href="/docs/guides/getting-started#reviewers-and-admins" className={cardLink}>How reviewing works</Link>
            </Audience>
            <Audience
              id="checkers"
              title="Anyone checking a listing or a payee"
              lead="Before you buy, pay or trust, see what was proved — no account needed."
              points={[
                "The certificate page (by link or QR code) says what was stated, how far it was checked and by whom",
                "Its status — active, suspended, revoked, expired — is live, not a screenshot",
                "The status is signed with Ed25519 against published keys, so you can verify it yourself",
              ]}
            >
              <a href="#check" className={cardLink}>Look up a record or a payee</a>
              <Link href="/docs/guides/getting-started#verify-a-status-signature-yourself" className={cardLink}>Verify a signature</Link>
              <a href="/.well-known/jwks.json" className={cardLink}>Signing keys</a>
            </Audience>
          </div>
        </section>

        <section aria-labelledby="levels-title" className={`${column} mt-14`}>
          <h2 id="levels-title" className="text-2xl font-semibold tracking-tight">How far a record was checked</h2>
          <p className="mt-2 max-w-2xl text-slate-700">
            Every record carries one evidence level, and its certificate says in plain words what that level proves
            and what it does not.
          </p>
          <dl className="mt-6 grid gap-4 sm:grid-cols-3">
            <Level term="Checked by a source">
              Proof Records checked the claim automatically at issue: the LEI register, DNS, a wallet signature, the chain.
            </Level>
            <Level term="Confirmed by a reviewer">
              A Proof Records reviewer confirmed the claim against the evidence and the source named on the record.
            </Level>
            <Level term="Stated, not checked">
              The account that issued the record stated it; Proof Records signed the statement but checked nothing.
            </Level>
          </dl>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}

function Audience({ id, title, lead, points, children }: {
  id: string; title: string; lead: string; points: string[]; children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} data-testid={`audience-${id}`} className="flex flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 id={`${id}-title`} className="text-lg font-semibold">{title}</h3>
      <p className="mt-2 text-slate-700">{lead}</p>
      <ul className="mt-4 flex-1 list-disc space-y-2 pl-5 text-sm text-slate-700">
        {points.map((p) => <li key={p}>{p}</li>)}
      </ul>
      <p className="mt-5 flex flex-wrap gap-x-4 gap-y-2 text-sm">{children}</p>
    </section>
  );
}

function Level({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="font-semibold">{term}</dt>
      <dd className="mt-1 text-sm text-slate-700">{children}</dd>
    </div>
  );
}
