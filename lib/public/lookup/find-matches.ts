import { and, asc, desc, eq, or, sql } from "drizzle-orm";
import { records, recordValues } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { listedNow } from "@/lib/record-model/listed-now";
import type { LookupKind, LookupValue } from "@/lib/format/normalize";

/** At most this many matches are answered, the strongest evidence first, then the newest. */
export const MAX_MATCHES = 20;

export type MatchRow = {
  id: string; accountId: string; claimType: string; subject: string; evidenceLevel: "participant_attested" | "source_verified" | "evidence_verified";
  kind: LookupKind; field: string;
};

const LEVEL_ORDER = sql`case ${records.evidenceLevel} when 'evidence_verified' then 0 when 'source_verified' then 1 else 2 end`;

/**
 * The records a lookup finds: an exact match on (kind, value) in record_values — one index
 * probe per candidate — of records listed now (listed-now.ts: live, public and active, not
 * past their expiry). record_values holds live public records only; the condition is applied
 * here too so that nothing else can ever match.
 */
export async function findMatches(db: DbOrTx, candidates: readonly LookupValue[], now: Date): Promise<MatchRow[]> {
  if (candidates.length === 0) return [];
  return db
    .select({
      id: records.id, accountId: records.accountId, claimType: records.claimType, subject: records.subject,
      evidenceLevel: records.evidenceLevel, kind: recordValues.kind, field: recordValues.field,
    })
    .from(recordValues)
    .innerJoin(records, eq(records.id, recordValues.recordId))
    .where(and(
      or(...candidates.map((c) => and(eq(recordValues.kind, c.kind), eq(recordValues.value, c.value)))),
      listedNow(now),
    ))
    .orderBy(LEVEL_ORDER, desc(records.issuedAt), asc(records.id))
    .limit(MAX_MATCHES * candidates.length);
}
