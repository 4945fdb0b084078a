import Link from "next/link";
import { HeaderCheckLink, Logo } from "./site-chrome";

/** The certificate's header: who runs this page (the same mark as the site header), what it is, and "Check before you pay". */
export function PublicHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3 sm:flex-nowrap sm:justify-start">
        <Logo />
        <HeaderCheckLink />
        <nav aria-label="This page" className="flex gap-4 text-sm text-slate-700">
          <a className="underline-offset-4 hover:underline" href="#about">What is this?</a>
          <a className="underline-offset-4 hover:underline" href="#verify">Verify</a>
        </nav>
      </div>
    </header>
  );
}

/** What a visitor who scanned a QR code needs: what this service is and how to check it without trusting this page. */
export function PublicAbout({ statusUrl, jwksUrl }: { statusUrl: string; jwksUrl: string }) {
  return (
    <section id="about" className="mt-8 space-y-3 rounded-lg bg-slate-100 p-5 text-sm text-slate-700">
      <h2 className="text-base font-semibold text-slate-900">What is this page?</h2>
      <p>
        Proof Records keeps signed records of statements about companies, domains, wallets and payments, and says how far each
        was checked: stated by the account only, checked automatically against a source, or confirmed by a Proof Records reviewer.
        A record says no more than what was checked. The account named above made the statement; Proof Records signed what it checked.
      </p>
      <p id="verify">
        Don&apos;t trust this page alone: the record&apos;s live status is signed (Ed25519) — fetch{" "}
        <a className="break-all underline" href={statusUrl}>its signed status</a> and check it against the public keys at{" "}
        <a className="break-all underline" href={jwksUrl}>{jwksUrl}</a> (details under “Signature” above).
      </p>
    </section>
  );
}

export function PublicFooter() {
  return (
    <footer className="mt-10 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-3xl flex-wrap justify-between gap-3 px-4 py-5 text-xs text-slate-500">
        <span>Proof Records — signed, verifiable records.</span>
        <span className="flex gap-4">
          <Link className="underline" href="/">Home</Link>
          <Link className="underline" href="/docs">Docs</Link>
        </span>
      </div>
    </footer>
  );
}
