import type { Metadata } from "next";
import Link from "next/link";
import { PortalHeader, PortalMain } from "@/components/portal";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { listBadgeSightings, listBadgeSightingsQuerySchema, type Sighting } from "@/lib/public/embed/sightings/list-sightings";
import { formatUtc } from "@/lib/format/dates";
import { SignOutButton } from "../../developers/forms";

export const metadata: Metadata = { title: "Where your badges appear", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The hosts the account's embed badges were loaded on (both environments), hosts its records do not cover first. */
export default async function BadgeSightingsPage({ searchParams }: Props) {
  const account = await requireAccount("/watches/badges");
  const after = (await searchParams).after;
  const q = listBadgeSightingsQuerySchema.safeParse({ limit: 50, ...(typeof after === "string" ? { starting_after: after } : {}) });
  const page = q.success
    ? await listBadgeSightings(await getDb(), { accountId: account.id, environment: null }, q.data).catch(() => null)
    : null;
  const items = page?.data ?? [];
  const uncovered = items.filter((s) => !s.covered).length;

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-6">
        <section>
          <h1 className="text-2xl font-semibold">Where your badges appear</h1>
          <p className="mt-2 max-w-2xl text-sm text-slate-700">
            Each site (host name only) whose pages loaded one of your records&apos; embed badges, and how often. A site your record
            does not cover — not its website, listing site or one of your proved domains — may be showing your badge to look like you:
            you were told once when it first appeared (event <code>badge.seen_elsewhere</code>), and visitors who follow the badge from
            there are warned on the certificate.
          </p>
          {items.length > 0 && (
            <p className="mt-2 text-sm font-semibold" data-testid="uncovered-count">
              {uncovered === 0 ? "Every site on this page is one your records cover." : `${uncovered} site${uncovered === 1 ? "" : "s"} your records do not cover.`}
            </p>
          )}
        </section>
        {!page && <p className="text-sm text-red-800">That page of the list does not exist. <Link className="underline" href="/watches/badges">Start again</Link>.</p>}
        {page && items.length === 0 && (
          <p className="rounded-lg bg-white p-5 text-sm text-slate-700 shadow-sm ring-1 ring-slate-200" data-testid="no-sightings">
            No badge of yours has been loaded on another site yet. Counts arrive within a few seconds of a page loading a badge.
          </p>
        )}
        {items.length > 0 && (
          <ul className="space-y-3" data-testid="sightings">
            {items.map((s) => <SightingItem key={s.id} s={s} />)}
          </ul>
        )}
        {page?.has_more && (
          <Link className="text-sm underline" href={`/watches/badges?after=${encodeURIComponent(items.at(-1)!.id)}`}>Next page ›</Link>
        )}
      </PortalMain>
    </>
  );
}

function SightingItem({ s }: { s: Sighting }) {
  return (
    <li
      data-testid="sighting" data-covered={s.covered ? "yes" : "no"}
      className={`rounded-lg p-4 shadow-sm ring-1 ${s.covered ? "bg-white ring-slate-200" : "border-l-8 border-amber-500 bg-amber-50 ring-amber-300"}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span className="font-mono text-base font-semibold [overflow-wrap:anywhere]" data-testid="sighting-host">{s.host}</span>
        <span className={`text-sm font-semibold ${s.covered ? "text-emerald-800" : "text-amber-900"}`}>
          {s.covered ? "Your site: the record covers it" : "Not covered by the record — is this site yours?"}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Badge of <Link className="underline" href={`/records/${s.record_id}`}>{s.record_id}</Link>
        {" · "}<a className="underline" href={s.certificate_url}>certificate</a>
      </p>
      <p className="mt-1 text-sm text-slate-600">
        <span data-testid="sighting-count">{s.count}</span> load{s.count === 1 ? "" : "s"} · first {formatUtc(s.first_seen_at)} · last {formatUtc(s.last_seen_at)}
        {s.reported_at && <> · you were told {formatUtc(s.reported_at)}</>}
      </p>
    </li>
  );
}
