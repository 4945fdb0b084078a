import { and, desc, eq, like, or } from "drizzle-orm";
import { recordHistory, records, recordValues } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { normalizedValue, type LookupValue } from "@/lib/format/normalize";
import { recordUrls } from "@/lib/record-model/urls";

/**
 * Take-downs keep warning (issue 38, item 11). A value — a website, an IBAN, a wallet, a
 * listing link — held by a live public record that Proof Records staff revoked stays a warning
 * wherever it is looked up: "Proof Records took a record with this ‹value› down on ‹date›:
 * ‹public reason›". Not "not on record — proves nothing": staff revoke a record only after
 * looking at it, and the reason they give is public on its certificate already.
 *
 * One index probe per candidate (record_values by kind and value), then the record's revoking
 * history entry: the same cost at any history length and number of records.
 */
export type TakenDown = { verification_id: string; at: string; reason: string; certificate_url: string; kind: LookupValue["kind"] };

/**
 * A page link also asks about its site: a stranger pastes `https://scam.example/flat/12`, and
 * the record staff took down was about the website `scam.example`.
 */
function withSites(candidates: readonly LookupValue[]): LookupValue[] {
  const out = [...candidates];
  for (const c of candidates) {
    if (c.kind !== "listing_url") continue;
    // A listing page's site, as the lookup normalises a website (lib/format/normalize.ts).
    const site = normalizedValue("website", c.value);
    if (site && !out.some((o) => o.kind === "website" && o.value === site)) out.push({ kind: "website", value: site });
  }
  return out;
}

export async function takenDown(db: DbOrTx, asked: readonly LookupValue[]): Promise<TakenDown | null> {
  if (asked.length === 0) return null;
  const candidates = withSites(asked);
  const [row] = await db
    .select({ id: records.id, at: recordHistory.at, reason: recordHistory.reason, kind: recordValues.kind })
    .from(recordValues)
    .innerJoin(records, eq(records.id, recordValues.recordId))
    .innerJoin(recordHistory, and(eq(recordHistory.recordId, records.id), eq(recordHistory.status, "revoked"), like(recordHistory.by, "staff:%")))
    .where(and(
      or(...candidates.map((c) => and(eq(recordValues.kind, c.kind), eq(recordValues.value, c.value)))),
      eq(records.environment, "live"), eq(records.visibility, "public"), eq(records.status, "revoked"),
    ))
    .orderBy(desc(recordHistory.at), desc(records.id))
    .limit(1);
  if (!row) return null;
  return {
    verification_id: row.id, at: row.at.toISOString(), reason: row.reason ?? "no reason was given", certificate_url: recordUrls(row.id).certificate_url,
    kind: row.kind as LookupValue["kind"],
  };
}
