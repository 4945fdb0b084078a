import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmActionForm } from "@/components/confirm-action";
import { Breakable, DataTable, PortalHeader, PortalMain } from "@/components/portal";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { domainToUnicode } from "node:url";
import { listBadgeSightings } from "@/lib/public/embed/sightings/list-sightings";
import { formatUtc } from "@/lib/format/dates";
import { domainDisplayText } from "@/lib/format/domain-display";
import { listWatches, WATCH_LIMIT } from "@/lib/watches/manage-watches";
import { SignOutButton } from "../developers/forms";
import { deleteWatchAction } from "./actions";
import { AddWatchForm } from "./add-watch-form";

export const metadata: Metadata = { title: "Impersonation watch", robots: { index: false } };
export const dynamic = "force-dynamic";

const KIND_LABEL: Record<string, string> = { name: "Name", domain: "Domain", iban: "IBAN", wallet: "Wallet", lei: "LEI" };

/** A domain as the display rules show it (a look-alike with its A-label beside it); other values as they are. */
const shown = (kind: string, value: string) =>
  kind === "domain" && !value.includes("/") ? domainDisplayText(domainToUnicode(value) || value) : value;

export default async function WatchesPage() {
  const account = await requireAccount("/watches");
  const db = await getDb();
  const { data: watches } = await listWatches(db, account.id);
  const uncovered = await listBadgeSightings(db, { accountId: account.id, environment: null }, { limit: 100, covered: "no" });
  const uncoveredHosts = new Set(uncovered.data.map((s) => s.host)).size;
  const uncoveredMore = uncovered.has_more;
  const matches = watches
    .flatMap((w) => w.recent_matches.map((m) => ({ ...m, watch: w })))
    .sort((a, b) => b.matched_at.localeCompare(a.matched_at))
    .slice(0, 50);

  return (
    <>
      <PortalHeader role={account.role} right={<><span className="text-slate-600">{account.email}</span><SignOutButton /></>} />
      <PortalMain className="space-y-10">
        <section>
          <h1 className="text-2xl font-semibold">Impersonation watch</h1>
          <p className="mt-2 max-w-3xl text-sm text-slate-700">
            Tell us your names, domains, IBANs, wallets and LEI. When a live public record of another account carries one of
            them — or, for names and domains, a look-alike written with other characters — we tell you at once: by email,
            and as a <code>watch.matched</code> event to your <Link className="underline" href="/developers">webhooks</Link>.
            A verified <Link className="underline" href="/organisation">organisation</Link> watches its legal name, LEI and
            proved domains by default.
          </p>
          <AddWatchForm />
        </section>

        <section aria-labelledby="watches-h">
          <h2 id="watches-h" className="text-lg font-semibold">Your watches</h2>
          <p className="mt-1 text-xs text-slate-500">{watches.length} of at most {WATCH_LIMIT}.</p>
          {watches.length === 0
            ? <p className="mt-3 text-sm text-slate-600" data-testid="no-watches">You watch nothing yet.</p>
            : (
              <DataTable className="mt-3" head={["What", "Value", "Compared as", "Added", "Matches", ""]} testId="watch-list">
                {watches.map((w) => (
                  <tr key={w.id} className="border-b border-slate-100 align-top" data-testid="watch-row" data-watch-id={w.id}>
                    <td className="py-2" data-label="What">
                      {KIND_LABEL[w.kind]}
                      {w.origin === "default" && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600" title="Added when your organisation was verified">default</span>}
                    </td>
                    <td data-label="Value"><Breakable text={w.value} /></td>
                    <td data-label="Compared as"><code className="text-xs"><Breakable text={w.match_key} /></code></td>
                    <td data-label="Added">{formatUtc(w.created_at)}</td>
                    <td data-label="Matches">{w.recent_matches.length}</td>
                    <td data-label="">
                      <ConfirmActionForm action={deleteWatchAction} fields={{ id: w.id }} trigger="Delete" triggerLabel={`Delete watch ${w.value}`}
                        question={<>Stop watching <strong>{w.value}</strong>? Its matches are forgotten.</>} confirm="Yes, delete" />
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
        </section>

        <section aria-labelledby="matches-h">
          <h2 id="matches-h" className="text-lg font-semibold">Recent matches</h2>
          {matches.length === 0
            ? <p className="mt-3 text-sm text-slate-600" data-testid="no-matches">No record of another account has carried what you watch.</p>
            : (
              <DataTable className="mt-3" head={["When", "Watched", "On the record", "How", "Certificate"]} testId="match-list">
                {matches.map((m) => (
                  <tr key={`${m.watch.id}-${m.verification_id}`} className="border-b border-slate-100 align-top" data-testid="match-row">
                    <td className="py-2" data-label="When">{formatUtc(m.matched_at)}</td>
                    <td data-label="Watched">{KIND_LABEL[m.watch.kind]} <Breakable text={m.watch.match_key} /></td>
                    <td data-label="On the record" data-testid="matched-value"><Breakable text={shown(m.watch.kind, m.matched_value)} /></td>
                    <td data-label="How">{m.how === "exact" ? "the same value" : <strong className="text-amber-800">a look-alike</strong>}</td>
                    <td data-label="Certificate"><Link className="underline" href={`/r/${m.verification_id}`}>{m.verification_id}</Link></td>
                  </tr>
                ))}
              </DataTable>
            )}
          <p className="mt-3 text-xs text-slate-500">
            {matches.length > 0 && "Not you? Open the certificate and report the record. "}Confusable names and domains are caught for records issued
            after the watch was added; exact IBANs, wallets and domains also among records already issued.
          </p>
        </section>

        <section aria-labelledby="badges-heading">
          <h2 id="badges-heading" className="text-lg font-semibold">Where your badges appear</h2>
          <p className="mt-2 max-w-3xl text-sm text-slate-700" data-testid="badge-sightings-summary">
            {uncoveredHosts === 0
              ? "No site your records do not cover has shown one of your embed badges."
              : `${uncoveredHosts}${uncoveredMore ? "+" : ""} site${uncoveredHosts === 1 ? "" : "s"} your records do not cover ${uncoveredHosts === 1 ? "has" : "have"} shown one of your embed badges.`}{" "}
            <Link className="underline" href="/watches/badges">Every site your badges appeared on</Link>
          </p>
        </section>
      </PortalMain>
    </>
  );
}
