import { and, eq } from "drizzle-orm";
import { badgeSightings } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import type { PublicView } from "@/lib/public/record/public-view";
import { coveredHosts, hostCovered } from "./covered-hosts";
import { pendingSighting, sightingHost } from "./sighting-counter";

export type ForeignArrival = { host: string; covers: string[] };

/**
 * The certificate's "you came here from another site" notice: the host of the `Referer` (the
 * badge's link sends the page's origin, docs/embed.md) when the record does not cover it and the
 * record's badge was seen on that host (badge_sightings, or counted by this process and not yet
 * flushed). Null otherwise: no Referer, the service's own pages, a covered host, or a site that
 * merely links to the certificate (a search engine, a mail). One primary-key read, only when the
 * Referer names an uncovered host.
 */
export async function foreignArrival(db: DbOrTx, view: Pick<PublicView, "row" | "aboutHosts">, referer: string | null, ownOrigin: string): Promise<ForeignArrival | null> {
  let origin: string | null = null;
  try {
    origin = referer ? new URL(referer).origin : null;
  } catch {
    return null;
  }
  const host = sightingHost(origin, ownOrigin);
  if (!host) return null;
  const covers = coveredHosts(view);
  if (hostCovered(host, covers)) return null;
  if (!pendingSighting(view.row.id, host)) {
    const [seen] = await db.select({ host: badgeSightings.host }).from(badgeSightings)
      .where(and(eq(badgeSightings.recordId, view.row.id), eq(badgeSightings.host, host)));
    if (!seen) return null;
  }
  return { host, covers };
}
