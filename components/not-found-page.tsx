import Link from "next/link";
import { SiteFooter, SiteHeader, column } from "./site-chrome";

/**
 * What a page that leads nowhere tells a stranger (issue 28): a link sent as proof that lands
 * here proves nothing — treat the claim as unverified — and where to go instead.
 */
export function UnverifiedLinkWarning({ what = "A link" }: { what?: string }) {
  return (
    <div role="note" data-testid="unverified-warning" className="mt-6 rounded-lg border-l-8 border-red-600 bg-red-50 p-4 text-red-950">
      <p className="font-semibold">Were you sent this link as proof? Treat the claim as unverified.</p>
      <p className="mt-1 text-sm">
        {what} that leads here shows no record at Proof Records. Whatever it was meant to prove — a company, a website, a payee —
        is not on record through it. Do not pay or share details because of it: look the website, IBAN or wallet up yourself.
      </p>
    </div>
  );
}

/** The public not-found page: the site header, what happened, the warning, and ways on. */
export function PublicNotFound({ title, lead, children }: { title: string; lead: string; children?: React.ReactNode }) {
  return (
    <>
      <SiteHeader />
      <main className={`${column} py-10 sm:py-14`} data-testid="not-found">
        <h1 className="text-2xl font-semibold sm:text-3xl">{title}</h1>
        <p className="mt-2 max-w-2xl text-slate-700">{lead}</p>
        {children}
        <UnverifiedLinkWarning />
        <p className="mt-6 flex flex-wrap gap-3">
          <Link href="/" className="rounded bg-slate-900 px-5 py-2.5 font-medium text-white hover:bg-slate-700" data-testid="way-home">Go to the home page</Link>
          <Link href="/check" className="rounded border border-emerald-700 bg-white px-5 py-2.5 font-medium text-emerald-800 hover:bg-emerald-50">Check before you pay</Link>
        </p>
      </main>
      <SiteFooter />
    </>
  );
}
