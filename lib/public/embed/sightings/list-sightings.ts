import { and, asc, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { badgeSightings, records } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";
import { recordUrls } from "@/lib/record-model/urls";

/** A sighting's id: its record and host, `PRS-…:host` (the cursor of the list). */
const SIGHTING_ID_RE = /^(PRS-[0-9A-HJKMNP-TV-Z]{20}):([a-z0-9.\-[\]:]{1,253})$/;

/** GET /api/v1/badge-sightings: what it filters on (anything else is 422 unknown_field). */
export const listBadgeSightingsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(25).describe("Page size, 1-100."),
  starting_after: z.string().regex(SIGHTING_ID_RE, "must be a sighting id (PRS-…:host)").optional()
    .describe("Cursor: the last sighting id of the previous page."),
  record_id: z.string().regex(RECORD_ID_RE).optional().describe("Only the sightings of this record (404 when it is not one of the key's)."),
  covered: z.enum(["yes", "no"]).optional().describe("Only hosts the record covers (`yes`) or does not (`no`)."),
});

export type Sighting = ReturnType<typeof serializeSighting>;

type Row = typeof badgeSightings.$inferSelect;

function serializeSighting(s: Row) {
  return {
    object: "badge_sighting" as const,
    id: `${s.recordId}:${s.host}`,
    record_id: s.recordId,
    certificate_url: recordUrls(s.recordId).certificate_url,
    host: s.host,
    covered: s.covered === "yes",
    count: s.count,
    first_seen_at: s.firstSeenAt.toISOString(),
    last_seen_at: s.lastSeenAt.toISOString(),
    reported_at: s.reportedAt ? s.reportedAt.toISOString() : null,
  };
}

/**
 * The hosts the badges of an account's records were loaded on (one environment, or both for the
 * portal when `environment` is null): hosts the record does not cover first, then newest first
 * (by first sighting), cursor-paginated. Tenancy in the WHERE clause: the record's account.
 */
export async function listBadgeSightings(
  db: DbOrTx,
  who: { accountId: string; environment: "live" | "sandbox" | null },
  q: z.infer<typeof listBadgeSightingsQuerySchema>,
) {
  const mine = and(eq(records.accountId, who.accountId), who.environment ? eq(records.environment, who.environment) : undefined);
  const conds: (SQL | undefined)[] = [mine];
  if (q.record_id) {
    const [own] = await db.select({ id: records.id }).from(records).where(and(eq(records.id, q.record_id), mine));
    if (!own) throw new ApiError("record_not_found", `No record ${q.record_id} for this API key.`, "record_id");
    conds.push(eq(badgeSightings.recordId, q.record_id));
  }
  if (q.covered) conds.push(eq(badgeSightings.covered, q.covered));
  if (q.starting_after) {
    const [, recordId, host] = SIGHTING_ID_RE.exec(q.starting_after)!;
    const [c] = await db.select({ s: badgeSightings }).from(badgeSightings).innerJoin(records, eq(records.id, badgeSightings.recordId))
      .where(and(eq(badgeSightings.recordId, recordId!), eq(badgeSightings.host, host!), mine));
    // An unknown cursor would silently restart at page one and loop a client forever.
    if (!c) throw new ApiError("invalid_value", `'starting_after' names no badge sighting of this API key.`, "starting_after");
    const { covered, firstSeenAt } = c.s;
    conds.push(or(
      gt(badgeSightings.covered, covered),
      and(eq(badgeSightings.covered, covered), lt(badgeSightings.firstSeenAt, firstSeenAt)),
      and(eq(badgeSightings.covered, covered), eq(badgeSightings.firstSeenAt, firstSeenAt), gt(badgeSightings.recordId, recordId!)),
      and(eq(badgeSightings.covered, covered), eq(badgeSightings.firstSeenAt, firstSeenAt), eq(badgeSightings.recordId, recordId!), gt(badgeSightings.host, host!)),
    ));
  }
  const rows = await db.select({ s: badgeSightings }).from(badgeSightings).innerJoin(records, eq(records.id, badgeSightings.recordId))
    .where(and(...conds))
    .orderBy(asc(badgeSightings.covered), desc(badgeSightings.firstSeenAt), asc(badgeSightings.recordId), asc(badgeSightings.host))
    .limit(q.limit + 1);
  return { object: "list" as const, data: rows.slice(0, q.limit).map((r) => serializeSighting(r.s)), has_more: rows.length > q.limit };
}
