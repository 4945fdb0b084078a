import type { Metadata } from "next";
import Link from "next/link";
import { DocsNav } from "@/components/docs-nav";
import { SiteFooter, wideColumn } from "@/components/site-chrome";
import { GUIDES } from "@/lib/docs/guides";

export const metadata: Metadata = { title: "Guides", description: "Guides to using and operating Proof Records." };

export default function GuidesPage() {
  return (
    <>
      <DocsNav active="guides" />
      <main className={`${wideColumn} py-10`}>
        <h1 className="text-3xl font-semibold tracking-tight">Guides</h1>
        <ul className="mt-6 grid gap-4 md:grid-cols-2">
          <li className="rounded-lg border border-slate-200 bg-white p-5">
            <a href="/docs" className="text-lg font-semibold underline-offset-4 hover:underline">API reference</a>
            <p className="mt-1 text-sm text-slate-700">Every endpoint, its parameters, answers and errors, rendered from the live OpenAPI document; try requests from the page.</p>
          </li>
          {GUIDES.map((g) => (
            <li key={g.slug} className="rounded-lg border border-slate-200 bg-white p-5">
              <Link href={`/docs/guides/${g.slug}`} className="text-lg font-semibold underline-offset-4 hover:underline">{g.title}</Link>
              <p className="mt-1 text-sm text-slate-700">{g.summary}</p>
            </li>
          ))}
        </ul>
      </main>
      <SiteFooter wide />
    </>
  );
}
