import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { recordHistory, recordHistoryCounts } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { getPublicRecord } from "./get-record";

/**
 * A record's history is unbounded (every suspend and reinstate is an entry), so no public
 * read loads all of it: answers carry the latest HISTORY_RECENT entries and the count, and
 * older ones are read a page at a time (`GET /api/v1/records/{id}/history?before=`,
 * `/r/{id}/history`). Every read here is one index range (record_history_record_idx on
 * (record_id, seq), record_history_record_at_idx on (record_id, at, seq)).
 */
export const HISTORY_RECENT = 50;
/** Page size of the paged history: default and largest. */
export const HISTORY_PAGE_DEFAULT = 50;
export const HISTORY_PAGE_MAX = 200;

export type StoredEntry = typeof recordHistory.$inferSelect;

/** The latest entries of one record and what is left before them. `entries` oldest first. */
export type RecentHistory = {
  entries: StoredEntry[];
  /** All the record's entries, those not loaded included. */
  count: number;
  /** The cursor for the entries before these (`before=`), null when these are all of them. */
  olderBefore: number | null;
};

const idList = (ids: readonly string[]) => sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::text[]`;

/**
 * The latest `limit` entries of each record (newest first per record), one query: a
 * LATERAL `ORDER BY seq DESC LIMIT n` per id. With `atOrBefore`, the latest ones written
 * for an instant at or before it, latest `at` first (ties: the later written).
 */
export async function latestEntries(
  db: DbOrTx, ids: readonly string[], limit: number, atOrBefore?: Date,
): Promise<Map<string, StoredEntry[]>> {
  const out = new Map<string, StoredEntry[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const at = atOrBefore ? sql`${atOrBefore.toISOString()}::timestamptz` : null;
  const newest = at
    ? sql`select x.seq from record_history x where x.record_id = r.id and x.at <= ${at} order by x.at desc, x.seq desc limit ${limit}`
    : sql`select x.seq from record_history x where x.record_id = r.id order by x.seq desc limit ${limit}`;
  const rows = ids.length === 1 && !at
    ? await db.select().from(recordHistory).where(eq(recordHistory.recordId, ids[0]!)).orderBy(desc(recordHistory.seq)).limit(limit)
    : await db.select().from(recordHistory).where(
      sql`${recordHistory.seq} in (select s.seq from unnest(${idList([...new Set(ids)])}) as r(id) cross join lateral (${newest}) s)`,
    );
  const order = (a: StoredEntry, b: StoredEntry) => (at ? b.at.getTime() - a.at.getTime() || b.seq - a.seq : b.seq - a.seq);
  for (const r of rows.sort(order)) out.get(r.recordId)?.push(r);
  return out;
}

/**
 * Each record's latest HISTORY_RECENT entries, oldest first, with its count. The count is
 * read (record_history_counts) only for a record that has more entries than that.
 */
export async function loadRecentHistories(db: DbOrTx, ids: readonly string[], recent = HISTORY_RECENT): Promise<Map<string, RecentHistory>> {
  const latest = await latestEntries(db, ids, recent + 1);
  const truncated = [...latest].filter(([, e]) => e.length > recent).map(([id]) => id);
  const counts = new Map<string, number>();
  if (truncated.length > 0) {
    // Kept by a trigger on every insert (migration 0027): one primary-key read, not a count of the rows.
    const rows = await db.select().from(recordHistoryCounts).where(inArray(recordHistoryCounts.recordId, truncated));
    for (const r of rows) counts.set(r.recordId, r.n);
  }
  const out = new Map<string, RecentHistory>();
  for (const [id, newestFirst] of latest) {
    const shown = newestFirst.slice(0, recent).reverse();
    const more = newestFirst.length > recent;
    out.set(id, { entries: shown, count: more ? counts.get(id) ?? shown.length : shown.length, olderBefore: more ? shown[0]!.seq : null });
  }
  return out;
}

/** A page of a record's history: `limit` entries written before the entry `before` (oldest first). */
export type HistoryPage = { entries: StoredEntry[]; nextBefore: number | null };

export async function getHistoryPage(db: DbOrTx, id: string, q: HistoryQuery): Promise<HistoryPage> {
  const rows = await db
    .select()
    .from(recordHistory)
    .where(and(eq(recordHistory.recordId, id), q.before === undefined ? undefined : lt(recordHistory.seq, q.before)))
    .orderBy(desc(recordHistory.seq))
    .limit(q.limit + 1);
  const entries = rows.slice(0, q.limit).reverse();
  return { entries, nextBefore: rows.length > q.limit ? entries[0]!.seq : null };
}

export type HistoryQuery = { before?: number; limit: number };

const DIGITS = /^[0-9]{1,16}$/;

/**
 * `?before=&limit=` of the paged history. Each at most once; `before` a positive whole number
 * (the cursor an answer gave: `history_before` / `next_before`), `limit` 1–HISTORY_PAGE_MAX.
 * Anything else is 422 (`invalid_format` for what is not a number, `invalid_value` out of range).
 */
export function historyQueryFrom(query: URLSearchParams): HistoryQuery {
  const one = (name: string) => {
    const all = query.getAll(name);
    if (all.length > 1) throw new ApiError("invalid_format", `'${name}' must be given once.`, name);
    return all[0];
  };
  const whole = (name: string, text: string) => {
    if (!DIGITS.test(text)) throw new ApiError("invalid_format", `'${name}' must be a whole number written in digits (got ${JSON.stringify(text.slice(0, 20))}).`, name);
    return Number(text);
  };
  const beforeText = one("before");
  const limitText = one("limit");
  const before = beforeText === undefined ? undefined : whole("before", beforeText);
  if (before !== undefined && (before < 1 || before > Number.MAX_SAFE_INTEGER)) {
    throw new ApiError("invalid_value", `'before' must be a cursor from an earlier answer (a whole number from 1 to ${Number.MAX_SAFE_INTEGER}).`, "before");
  }
  const limit = limitText === undefined ? HISTORY_PAGE_DEFAULT : whole("limit", limitText);
  if (limit < 1 || limit > HISTORY_PAGE_MAX) throw new ApiError("invalid_value", `'limit' must be from 1 to ${HISTORY_PAGE_MAX}.`, "limit");
  return { before, limit };
}

/**
 * What the public history page (app/r/[id]/history) shows: the record's id and subject and
 * the page `query` asks for. Null: no issued record (the certificate's 404). A malformed
 * cursor is `{ refused }` with the reason, shown as the page's answer, never a crash.
 */
export async function getPublicHistoryPage(db: DbOrTx, id: string, query: URLSearchParams) {
  const record = await getPublicRecord(db, id);
  if (!record) return null;
  let q: HistoryQuery;
  try {
    q = historyQueryFrom(query);
  } catch (e) {
    if (e instanceof ApiError) return { record, refused: e.message } as const;
    throw e;
  }
  return { record, before: q.before ?? null, page: await getHistoryPage(db, record.id, q) } as const;
}
