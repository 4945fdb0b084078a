import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SubjectName } from "@/components/domain-name";
import { HistoryList, OlderEntriesLink } from "@/components/history-list";
import { PublicFooter, PublicHeader } from "@/components/public-shell";
import { getDb } from "@/lib/db/client";
import { actorKind } from "@/lib/public/record/public-view";
import { getPublicHistoryPage } from "@/lib/record-model/history-page";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const queryOf = (sp: Record<string, string | string[] | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(sp)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) q.append(k, one);
  return q;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `History of ${id.slice(0, 40)}`, robots: { index: false, follow: false } };
}

/** Older entries of a certificate's history, a page at a time (newest page first, each page oldest first). */
export default async function HistoryPage({ params, searchParams }: Props) {
  const { id } = await params;
  const shown = await getPublicHistoryPage(await getDb(), id, queryOf(await searchParams));
  if (!shown) notFound();
  const { record } = shown;
  const certificate = `/r/${encodeURIComponent(record.id)}`;
  return (
    <>
      <PublicHeader />
      <main className="mx-auto max-w-3xl px-4 py-6 sm:py-10">
        <p className="text-xs uppercase tracking-wide text-slate-500">Proof record {record.id}</p>
        <h1 className="mt-1 text-2xl font-bold leading-tight [overflow-wrap:anywhere]">
          History of the record about <SubjectName subject={record.subject} />
        </h1>
        <p className="mt-2 text-sm"><a className="underline" href={certificate}>Back to the certificate</a> (its status now and the latest entries)</p>
        <section className="mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
          {"refused" in shown ? (
            <p data-testid="history-refused">
              This is not a page of the history: {shown.refused} <a className="underline" href={`${certificate}/history`}>Latest entries</a>
            </p>
          ) : (
            <>
              <h2 className="font-semibold">{shown.before === null ? "Latest entries" : "Older entries"}</h2>
              {shown.page.entries.length === 0
                ? <p className="mt-2 text-sm text-slate-600">No entries before this point.</p>
                : <HistoryList entries={shown.page.entries.map((h) => ({ ...h, by: actorKind(h.by) }))} />}
              <div className="mt-1 flex flex-wrap gap-3">
                <OlderEntriesLink recordId={record.id} before={shown.page.nextBefore} />
                {shown.before !== null && (
                  <a className="mt-3 inline-block rounded border border-slate-300 px-3 py-2 text-sm font-medium underline" href={`${certificate}/history`}>
                    Latest entries
                  </a>
                )}
              </div>
            </>
          )}
        </section>
      </main>
      <PublicFooter />
    </>
  );
}
