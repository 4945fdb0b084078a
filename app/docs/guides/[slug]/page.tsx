import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DocsNav } from "@/components/docs-nav";
import { SiteFooter, wideColumn } from "@/components/site-chrome";
import { guideBySlug, renderGuide } from "@/lib/docs/guides";
import "../markdown.css";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const guide = guideBySlug((await params).slug);
  return guide ? { title: guide.title, description: guide.summary } : { title: "Not found" };
}

/** One guide from docs/ (lib/docs/guides.ts lists them), rendered on the server. */
export default async function GuidePage({ params }: Props) {
  const guide = guideBySlug((await params).slug);
  const rendered = guide && (await renderGuide(guide));
  if (!guide || !rendered) notFound();
  const outline = rendered.headings.filter((h) => h.depth === 2);

  return (
    <>
      <DocsNav active={guide.slug} />
      <div className={`${wideColumn} lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-12`}>
        <aside className="hidden lg:block">
          {outline.length > 1 && (
            <nav aria-label="On this page" className="sticky top-0 max-h-screen overflow-y-auto py-10 text-sm">
              <p className="font-semibold text-slate-900">On this page</p>
              <ul className="mt-3 space-y-2 border-l border-slate-200">
                {outline.map((h) => (
                  <li key={h.id}>
                    <a href={`#${h.id}`} className="-ml-px block border-l border-transparent pl-3 text-slate-600 hover:border-slate-400 hover:text-slate-950">{h.text}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </aside>
        <main className="min-w-0 py-8 sm:py-10">
          <article className="markdown max-w-3xl" data-testid="guide" dangerouslySetInnerHTML={{ __html: rendered.html }} />
        </main>
      </div>
      <SiteFooter wide />
    </>
  );
}
