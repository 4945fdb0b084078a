import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SiteFooter, SiteHeader, column } from "@/components/site-chrome";
import { recordIdFromInput } from "@/lib/records/record-id-from-input";

export const metadata: Metadata = {
  title: { absolute: "Proof Records — signed records anyone can check" },
  description:
    "Issue signed, verifiable records about your company, domain, wallet and payments. Anyone can check them on a public certificate page, by QR code or through the signed status.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const cardLink = "font-medium text-slate-900 underline decoration-slate-300 underline-offset-4 hover:decoration-slate-900";

export default async function Home({ searchParams }: Props) {
  // "Check a record" is a plain GET form to this page: it works without JavaScript.
  const asked = (await searchParams).record;
  const typed = typeof asked === "string" ? asked.slice(0, 200) : undefined;
  const id = typed === undefined ? null : recordIdFromInput(typed);
  if (id) redirect(`/r/${id}`);

  return (
    <>
      <SiteHeader />
      <main>
        <section className={`${column} pt-12 pb-10 sm:pt-16`}>
          <h1 className="max-w-3xl text-3xl font-semibold tracking-tight text-balance sm:text-5xl">
            Signed records that anyone can check.
          </h1>
          <p className="mt-5 max-w-2xl text-base text-slate-700 sm:text-lg">
            A company states something about itself — its registration, its domain, its wallet, a payment — and
            Proof Records checks it as far as a source or a reviewer can, signs it and gives it a public certificate.
            Whoever is shown the record sees who said what, how far it was checked, and whether it is still valid.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link href="/signup" className="rounded bg-slate-900 px-5 py-2.5 font-medium text-white hover:bg-slate-700">
              Create an account
            </Link>
            <a href="/docs" className="rounded border border-slate-300 bg-white px-5 py-2.5 font-medium text-slate-900 hover:bg-slate-100">
              Read the docs
            </a>
          </div>
        </section>

        <section aria-labelledby="pay-title" className={`${column} mb-6`}>
          <div className="rounded-lg border-l-8 border-emerald-600 bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
            <h2 id="pay-title" className="text-lg font-semibold">Check before you pay</h2>
            <p className="mt-1 text-sm text-slate-600">
              Asked to pay a website, an IBAN or a wallet? See whether it is on record for the operator you think — and whether a
              Proof Records reviewer verified that operator.
            </p>
            <a href="/check" className="mt-3 inline-block rounded bg-emerald-700 px-5 py-2.5 font-medium text-white hover:bg-emerald-800" data-testid="home-check-link">
              Check an operator, website or payee
            </a>
          </div>
        </section>

        <section aria-labelledby="check-title" id="check" className={`${column} scroll-mt-4`}>
          <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
            <h2 id="check-title" className="text-lg font-semibold">Check a record</h2>
            <p className="mt-1 text-sm text-slate-600">
              Type the id printed on the certificate or under its QR code, or paste the certificate link.
            </p>
            <form action="/" method="get" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
              <div className="flex-1">
                <label htmlFor="record" className="sr-only">Record id</label>
                <input
                  id="record"
                  name="record"
                  defaultValue={typed}
                  required
                  maxLength={200}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="PRS-…"
                  aria-invalid={typed !== undefined || undefined}
                  aria-describedby={typed !== undefined ? "record-error" : undefined}
                  className={`block w-full rounded border bg-white px-3 py-2 font-mono text-slate-900 focus:outline-none ${typed !== undefined ? "border-red-500 focus:border-red-600" : "border-slate-300 focus:border-slate-500"}`}
                />
                {typed !== undefined && (
                  <p id="record-error" role="alert" className="mt-2 text-sm text-red-700">
                    That is not a record id. A record id is PRS- followed by 20 letters and digits, e.g.
                    PRS-01JQ8Z3M7T5W9XKD4RBN.
                  </p>
                )}
              </div>
              <button type="submit" className="rounded bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700">
                Open its certificate
              </button>
            </form>
          </div>
        </section>

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
              <a href="#check" className={cardLink}>Check a record</a>
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
