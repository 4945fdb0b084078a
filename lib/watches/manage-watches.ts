import { and, asc, desc, eq, inArray, lte, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts, records, recordValues, watches, watchMatches } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { newWatchId, WATCH_ID_RE } from "@/lib/ids";
import { recordUrls } from "@/lib/record-model/urls";
import { watchLookalikeKeys } from "./lookalike";
import { fireWatches, type Found } from "./match-watches";
import { queueMail } from "@/lib/mail/mail-outbox";
import { watchMail, type WatchMail } from "./watch-mail";
import { WATCH_KINDS, WATCH_LIMIT, watchValue, type WatchKind } from "./watch-value";

export { WATCH_LIMIT };

/** Each watch in a list carries its newest matches, at most this many. */
export const RECENT_MATCHES = 10;
/** A new watch fires for at most this many existing records (the newest). */
const EXISTING_MAX = 50;

export const watchCreateSchema = z
  .strictObject({
    kind: z.enum(WATCH_KINDS).describe("What is watched: a name, a domain, an IBAN, a wallet address or an LEI."),
    value: z.string().min(1).max(300).describe("The value; normalised per kind (the answer's `match_key`)."),
  })
  .meta({ id: "WatchCreate" });

type Row = typeof watches.$inferSelect;
type MatchRow = typeof watchMatches.$inferSelect;

export function serializeWatch(w: Row, matches: readonly MatchRow[] = []) {
  return {
    object: "watch" as const,
    id: w.id,
    kind: w.kind,
    value: w.value,
    match_key: w.matchKey,
    origin: w.origin,
    created_at: w.createdAt.toISOString(),
    recent_matches: matches.map((m) => ({
      verification_id: m.recordId,
      how: m.how,
      matched_value: m.matchedValue,
      event_id: m.eventId,
      certificate_url: recordUrls(m.recordId).certificate_url,
      matched_at: m.createdAt.toISOString(),
    })),
  };
}

/**
 * Add a watch for the account (its one source: the API, the portal and the default watches).
 * The same value again (same kind and normal form) answers the watch it already has, with
 * `created: false`: adding is idempotent. A new exact watch of an IBAN, wallet or domain fires
 * at once for the live public records of other accounts that already carry the value (the
 * lookup's index); confusables, names and LEIs only for records issued afterwards.
 */
export async function createWatch(
  db: Db, accountId: string, input: { kind: WatchKind; value: string }, origin: "user" | "default" = "user",
): Promise<{ watch: ReturnType<typeof serializeWatch>; created: boolean }> {
  const v = watchValue(input.kind, input.value);
  if ("error" in v) throw ApiError.fromField(v.error);
  const { row, created } = await db.transaction(async (tx) => {
    // One writer per account at a time, so the limit holds under concurrent adds.
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
    const [had] = await tx.select().from(watches)
      .where(and(eq(watches.accountId, accountId), eq(watches.kind, input.kind), eq(watches.matchKey, v.matchKey)));
    if (had) return { row: had, created: false };
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(watches).where(eq(watches.accountId, accountId)) as [{ n: number }];
    if (n >= WATCH_LIMIT) throw new ApiError("watch_limit_reached", `An account has at most ${WATCH_LIMIT} watches: delete one first.`);
    const row: Row = {
      id: newWatchId(), accountId, kind: input.kind, value: input.value.trim().slice(0, 300), matchKey: v.matchKey,
      skeleton: v.skeleton, lookalikeKeys: watchLookalikeKeys(input.kind, input.value), origin, createdAt: new Date(),
    };
    await tx.insert(watches).values(row);
    // The watcher's mails are queued with the matches (sent by the outbox worker, never inside this request).
    await queueMail(tx, ...(await fireForExisting(tx, row)).map(watchMail));
    return { row, created: true };
  });
  const recent = await recentMatches(db, [row.id]);
  return { watch: serializeWatch(row, recent.get(row.id)), created };
}

/** The record_values kinds a watch's exact value is found under. */
const LOOKUP_KIND: Partial<Record<WatchKind, "iban" | "wallet" | "website">> = { iban: "iban", wallet: "wallet", domain: "website" };

async function fireForExisting(tx: DbOrTx, w: Row): Promise<WatchMail[]> {
  const kind = LOOKUP_KIND[w.kind];
  if (!kind) return [];
  const hits = await tx
    .select({ row: records, field: recordValues.field, value: recordValues.value })
    .from(recordValues)
    .innerJoin(records, eq(records.id, recordValues.recordId))
    .where(and(
      eq(recordValues.kind, kind), eq(recordValues.value, w.matchKey), ne(records.accountId, w.accountId),
      eq(records.environment, "live"), eq(records.visibility, "public"), eq(records.status, "active"),
    ))
    .orderBy(desc(records.issuedAt))
    .limit(EXISTING_MAX);
  if (hits.length === 0) return [];
  const [owner] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, w.accountId));
  const found: Found[] = hits.map((h) => ({
    watch: { id: w.id, account_id: w.accountId, kind: w.kind, value: w.value, email: owner!.email },
    r: { row: h.row },
    how: "exact",
    v: { value: h.value, field: h.field },
  }));
  return fireWatches(tx, found, new Date());
}

async function recentMatches(db: DbOrTx, ids: string[]): Promise<Map<string, MatchRow[]>> {
  const out = new Map<string, MatchRow[]>();
  if (ids.length === 0) return out;
  // The newest RECENT_MATCHES of each watch, however many it has (a window over the watch's matches).
  const ranked = db
    .select({
      watchId: watchMatches.watchId, recordId: watchMatches.recordId, how: watchMatches.how, matchedValue: watchMatches.matchedValue,
      eventId: watchMatches.eventId, createdAt: watchMatches.createdAt,
      n: sql<number>`row_number() over (partition by ${watchMatches.watchId} order by ${watchMatches.createdAt} desc, ${watchMatches.recordId})`.as("n"),
    })
    .from(watchMatches)
    .where(inArray(watchMatches.watchId, ids))
    .as("ranked");
  const rows = await db.select().from(ranked).where(lte(ranked.n, RECENT_MATCHES)).orderBy(desc(ranked.createdAt), asc(ranked.recordId));
  for (const { n: _n, ...m } of rows) out.set(m.watchId, [...(out.get(m.watchId) ?? []), m]);
  return out;
}

/** The account's watches, newest first, each with its newest matches. */
export async function listWatches(db: DbOrTx, accountId: string) {
  const rows = await db.select().from(watches).where(eq(watches.accountId, accountId)).orderBy(desc(watches.createdAt), desc(watches.id));
  const recent = await recentMatches(db, rows.map((w) => w.id));
  return { object: "list" as const, data: rows.map((w) => serializeWatch(w, recent.get(w.id))), has_more: false, limit: WATCH_LIMIT };
}

/** Delete one of the account's watches (and its matches); another account's id, or none, is 404 watch_not_found. */
export async function deleteWatch(db: DbOrTx, accountId: string, id: string) {
  const notFound = new ApiError("watch_not_found", `No watch ${id.slice(0, 60)} in this account.`, "id");
  if (!WATCH_ID_RE.test(id)) throw notFound;
  const [gone] = await db.delete(watches).where(and(eq(watches.id, id), eq(watches.accountId, accountId))).returning({ id: watches.id });
  if (!gone) throw notFound;
  return { object: "watch" as const, id, deleted: true };
}
