import { asc, sql } from "drizzle-orm";
import { organisations } from "@/drizzle/schema";
import { getAccountProfiles } from "@/lib/accounts/account-profile";
import type { DbOrTx } from "@/lib/db/client";
import { speakerOf } from "@/lib/trust/decide";

/** At most this many verified organisations head a search. */
export const MAX_ORGANISATIONS = 5;

export type DirectoryOrganisation = { accountId: string; legalName: string; lei: string | null; jurisdiction: string | null };

/**
 * The verified organisations whose legal name holds every word of a directory search (issue 38,
 * item 12: verified organisations rank first): they head the answer, above records that may
 * only use the name. Only organisations that speak as verified now (speakerOf), in name order.
 * The organisations table has one row per verified account, not per record: its size does not
 * grow with the records' history, and the words are found through a GIN index, not a scan.
 */
/** The query itself, unawaited: tests/db/directory-search.test.ts reads its plan. */
export function verifiedOrganisationsQuery(db: DbOrTx, words: string) {
  return db.select({ accountId: organisations.accountId, legalName: organisations.legalName, lei: organisations.lei, jurisdiction: organisations.jurisdiction })
    .from(organisations)
    // Written as the partial GIN index is (migration 0037): the literal status lets the planner use it under any plan.
    .where(sql`${organisations.status} = 'verified' and to_tsvector('simple', ${organisations.legalName}) @@ plainto_tsquery('simple', ${words})`)
    .orderBy(asc(organisations.nameKey), asc(organisations.accountId))
    .limit(MAX_ORGANISATIONS);
}

export async function verifiedOrganisationsMatching(db: DbOrTx, words: string): Promise<DirectoryOrganisation[]> {
  const rows = await verifiedOrganisationsQuery(db, words);
  if (rows.length === 0) return [];
  const profiles = await getAccountProfiles(db, rows.map((r) => r.accountId));
  return rows.filter((r) => {
    const p = profiles.get(r.accountId);
    return p !== undefined && speakerOf(p) === "verified_organisation";
  });
}
