import Link from "next/link";

/**
 * The public pages' header and footer (home, /docs). The portal keeps its own
 * PortalHeader; both share the content column `max-w-5xl px-4 sm:px-6` unless `wide`.
 */

export const column = "mx-auto w-full max-w-5xl px-4 sm:px-6";
export const wideColumn = "mx-auto w-full max-w-7xl px-4 sm:px-6";

export function Logo() {
  return (
    <Link href="/" className="flex shrink-0 items-center gap-2 font-semibold text-slate-900">
      {/* The same mark as app/icon.svg; decorative beside the name. */}
      <svg aria-hidden="true" viewBox="0 0 64 64" className="h-7 w-7">
        <rect width="64" height="64" rx="14" fill="#0f172a" />
        <path d="M22 10h15l11 11v31a2 2 0 0 1-2 2H22a2 2 0 0 1-2-2V12a2 2 0 0 1 2-2z" fill="#fff" />
        <path d="M37 10v9a2 2 0 0 0 2 2h9z" fill="#cbd5e1" />
        <path d="M25.5 36.5l5.5 5.5 10-11" fill="none" stroke="#0f172a" strokeWidth="4.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>Proof Records</span>
    </Link>
  );
}

/**
 * "Check before you pay" as every public header carries it (CONTRACT "What a public yes
 * requires": linked from the header): beside the other links from 640 px, and on a phone a
 * full-width row of its own under the logo — one tap, never behind a menu. Put it right after
 * the logo; its parent must be a `flex flex-wrap` row.
 */
export function HeaderCheckLink() {
  return (
    <Link
      href="/check"
      data-testid="header-check"
      className="order-last flex w-full items-center justify-center rounded bg-emerald-700 px-3 py-2.5 text-sm font-semibold text-white hover:bg-emerald-800 sm:order-none sm:ml-auto sm:w-auto sm:bg-transparent sm:px-0 sm:py-0 sm:font-medium sm:text-emerald-800 sm:hover:bg-transparent sm:hover:text-emerald-950 sm:hover:underline"
    >
      Check before you pay
    </Link>
  );
}

export function SiteHeader({ wide = false }: { wide?: boolean }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className={`${wide ? wideColumn : column} flex flex-wrap items-center justify-between gap-x-3 gap-y-2 py-3 sm:flex-nowrap sm:justify-start sm:gap-5`}>
        <Logo />
        <HeaderCheckLink />
        <nav aria-label="Site" className="flex items-center gap-3 text-sm sm:gap-5">
          {/* A plain link: /docs must load as a document of its own (its CSP, app/docs/api-reference.tsx). */}
          <a href="/docs" className="text-slate-700 hover:text-slate-950 hover:underline">Docs</a>
          <Link href="/signin" className="text-slate-700 hover:text-slate-950 hover:underline">Sign in</Link>
          <Link href="/signup" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white hover:bg-slate-700">Sign up</Link>
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter({ wide = false }: { wide?: boolean }) {
  const links = [
    ["/check", "Check before you pay"],
    ["/directory", "Directory"],
    ["/docs", "API reference"],
    ["/docs/guides", "Guides"],
    ["/api/v1/openapi.json", "OpenAPI document"],
    ["/.well-known/jwks.json", "Signing keys"],
  ] as const;
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className={`${wide ? wideColumn : column} flex flex-col gap-3 py-6 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between`}>
        <p>Proof Records — signed records anyone can check.</p>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-4 gap-y-1">
          {links.map(([href, label]) => (
            // Plain links: two are JSON documents, and /docs loads as a document of its own.
            <a key={href} href={href} className="hover:text-slate-900 hover:underline">{label}</a>
          ))}
        </nav>
      </div>
    </footer>
  );
}
