import { and, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { nudgeOutbox } from "@/lib/outbox/wake";
import { accounts, events, records, watchMatches } from "@/drizzle/schema";
import { rowsOf, type DbOrTx } from "@/lib/db/client";
import type { RecordValueRow } from "@/lib/record-model/record-values";
import { loadPublicViews } from "@/lib/public/record/public-view";
import type { RecordRow } from "@/lib/public/record/serialize-record";
import { statusFields } from "@/lib/public/record/signed-status";
import { buildEvent } from "@/lib/outbox/write-event";
import { addDefaultDomainWatches } from "./default-watches";
import { recordWatchValues, type WatchedValue } from "./record-watch-values";
import type { WatchMail } from "./watch-mail";
import { compareValues, lookalikeKeys } from "./lookalike";
import { nameKey, skeletonOf, type WatchKind } from "./watch-value";

/** A record just made live (issued, from a batch, or approved): its row and its lookup values. */
export type IssuedRecord = { row: RecordRow; values: readonly RecordValueRow[] };

type WatchHit = { id: string; account_id: string; kind: WatchKind; value: string; match_key: string; skeleton: string | null; email: string };

/**
 * Fire the watches of other accounts that the records carry (lib/watches, docs/api.md
 * "Impersonation watches"), in the caller's transaction: for live public active records only,
 * one indexed query for all of them (findWatchHits: exact, confusable or look-alike), then
 * one watch_matches row per (watch, record) — written once, so a record fires a watch once
 * whatever happens to it later — and one `watch.matched` event to the watcher's account per
 * new row. The watcher's own records never fire its watches. A domain a verified organisation
 * proves by one of these records becomes one of its default watches (default-watches.ts). Returns the mails to send once
 * the transaction has committed (the subscriber queues them: watch-subscriber.ts).
 */
export async function matchWatches(tx: DbOrTx, issued: readonly IssuedRecord[], at = new Date()): Promise<WatchMail[]> {
  await addDefaultDomainWatches(tx, issued, at); // a verified organisation's newly proved domain is watched from now on
  const live = issued.filter((r) => r.row.environment === "live" && r.row.visibility === "public" && r.row.status === "active");
  if (live.length === 0) return [];
  const names = new Map((await tx.select({ id: accounts.id, name: accounts.name }).from(accounts)
    .where(inArray(accounts.id, [...new Set(live.map((r) => r.row.accountId))]))).map((a) => [a.id, a.name]));
  const perRecord = live.map((r) => ({ r, values: recordWatchValues(r.row, r.values, names.get(r.row.accountId) ?? null) })).filter((x) => x.values.length);
  if (perRecord.length === 0) return [];
  const all = perRecord.flatMap((x) => x.values);
  const hits = await findWatchHits(tx, all);
  if (hits.length === 0) return [];

  const found: Found[] = [];
  for (const { r, values } of perRecord) {
    for (const h of hits) {
      if (h.watch.account_id === r.row.accountId) continue; // an account's own records never fire its watches
      if (!values.includes(h.value)) continue;
      found.push({ watch: h.watch, r, how: h.how, v: h.value });
    }
  }
  // One match per (watch, record): the closest way it matched.
  const seen = new Set<string>();
  const closest = found.sort((a, b) => HOW_RANK[a.how] - HOW_RANK[b.how]).filter((f) => {
    const k = `${f.watch.id} ${f.r.row.id}`;
    return !seen.has(k) && seen.add(k);
  });
  if (closest.length === 0) return [];

  return fireWatches(tx, closest, at);
}

const HOW_RANK = { exact: 0, confusable: 1, lookalike: 2 } as const;
export type MatchHow = keyof typeof HOW_RANK;
export type WatchValueHit = { watch: WatchHit; value: WatchedValue; how: MatchHow };

/**
 * The watches the values hit (one indexed query): the same value in normal form (`exact`, by
 * (kind, match_key)), the same TR39 skeleton (`confusable`, by (kind, skeleton)), or a look-alike
 * (`lookalike`: a shared key of lib/watches/lookalike.ts, by the GIN index on lookalike_keys,
 * confirmed by compareValues). One hit per (watch, value) that meet. Also what the reviewers'
 * risk signals ask (lib/reviews/risk-signals.ts): the impersonation watches and the console use
 * one matcher. `onlyVerifiedOrganisations`: only watches of accounts that are a verified organisation.
 */
export async function findWatchHits(tx: DbOrTx, values: readonly WatchedValue[], o: { onlyVerifiedOrganisations?: boolean } = {}): Promise<WatchValueHit[]> {
  if (values.length === 0) return [];
  const exact = new Set<string>();
  const similar = new Set<string>();
  const like = { name: new Set<string>(), domain: new Set<string>() };
  for (const v of values) {
    exact.add(JSON.stringify([v.kind, v.key]));
    if (v.skeleton) similar.add(JSON.stringify([v.kind, v.skeleton]));
    if (v.kind === "name" || v.kind === "domain") for (const k of lookalikeKeys(v.kind === "domain" ? v.key : v.value, v.kind)) like[v.kind].add(k);
  }
  const pairs = (s: Set<string>) => JSON.stringify([...s].map((j) => JSON.parse(j) as [string, string]).map(([k, v]) => ({ k, v })));
  const arr = (s: Set<string>) => sql`array(select jsonb_array_elements_text(${JSON.stringify([...s])}::jsonb))`;
  const rows = rowsOf<WatchHit>(await tx.execute(sql`
    select w.id, w.account_id, w.kind, w.value, w.match_key, w.skeleton, a.email
    from watches w join accounts a on a.id = w.account_id
    where ((w.kind, w.match_key) in (select p.k, p.v from jsonb_to_recordset(${pairs(exact)}::jsonb) as p(k text, v text))
       ${similar.size ? sql`or (w.kind, w.skeleton) in (select p.k, p.v from jsonb_to_recordset(${pairs(similar)}::jsonb) as p(k text, v text))` : sql``}
       ${like.name.size ? sql`or (w.kind = 'name' and w.lookalike_keys && ${arr(like.name)})` : sql``}
       ${like.domain.size ? sql`or (w.kind = 'domain' and w.lookalike_keys && ${arr(like.domain)})` : sql``})
       ${o.onlyVerifiedOrganisations ? sql`and exists (select 1 from organisations o where o.account_id = w.account_id and o.status = 'verified')` : sql``}`));
  const out: WatchValueHit[] = [];
  for (const w of rows) {
    for (const v of values) {
      if (v.kind !== w.kind) continue;
      const how: MatchHow | null = v.key === w.match_key ? "exact"
        : v.skeleton !== null && v.skeleton === w.skeleton ? "confusable"
        : (v.kind === "name" || v.kind === "domain") && compareValues(v.kind === "domain" ? v.key : v.value, w.kind === "domain" ? w.match_key : w.value, v.kind) ? "lookalike"
        : null;
      if (how) out.push({ watch: w, value: v, how });
    }
  }
  return out;
}

export type Found = { watch: Pick<WatchHit, "id" | "account_id" | "kind" | "value" | "email">; r: { row: RecordRow }; how: MatchHow; v: Pick<WatchedValue, "value" | "field"> };

/**
 * Write each (watch, record) match once (watch_matches) and, for each new one, its `watch.matched`
 * event carrying the record's public answer — what its signed status says (statusFields), never
 * the owner's view (which names private linked records); the mails for the new ones.
 */
export async function fireWatches(tx: DbOrTx, found: readonly Found[], at: Date): Promise<WatchMail[]> {
  if (found.length === 0) return [];
  const distinct = [...new Map(found.map((f) => [f.r.row.id, f.r.row])).values()];
  const views = await loadPublicViews(tx, distinct, at.getTime());
  const publicAnswer = new Map(distinct.map((row, i) => [row.id, statusFields(views[i]!) as Record<string, unknown>]));
  const rows = found.map((f) => {
    const event = buildEvent({
      accountId: f.watch.account_id, environment: "live", type: "watch.matched", at,
      data: {
        watch: { id: f.watch.id, kind: f.watch.kind, value: f.watch.value },
        match: { how: f.how, value: f.v.value, field: f.v.field },
        record: publicAnswer.get(f.r.row.id),
      },
    });
    return { f, event };
  });
  const written = await tx
    .insert(watchMatches)
    .values(rows.map(({ f, event }) => ({ watchId: f.watch.id, recordId: f.r.row.id, how: f.how, matchedValue: f.v.value, eventId: event.id, createdAt: at })))
    .onConflictDoNothing()
    .returning({ eventId: watchMatches.eventId });
  const fresh = new Set(written.map((w) => w.eventId));
  const firing = rows.filter(({ event }) => fresh.has(event.id));
  if (firing.length) {
    await tx.insert(events).values(firing.map(({ event }) => event));
    nudgeOutbox();
  }
  return firing.map(({ f }) => ({
    to: f.watch.email, watch: { kind: f.watch.kind, value: f.watch.value }, how: f.how, value: f.v.value, recordId: f.r.row.id,
  }));
}

/**
 * An account took a new name (PATCH /api/v1/account, the portal): every live public record it
 * has now reads "an account calling itself <name>". When that name, or a look-alike, is one
 * another account watches, the watch fires with the account's newest live public active
 * record (once per watch and record, as always); records it issues later are compared as
 * they are issued. Nothing happens for an account with no such record. In the caller's
 * transaction; returns the mails to send after it commits.
 */
export async function matchAccountName(tx: DbOrTx, accountId: string, name: string | null, at = new Date()): Promise<WatchMail[]> {
  const key = name ? nameKey(name) : "";
  if (!key) return [];
  const value: WatchedValue = { kind: "name", key, skeleton: skeletonOf(key), value: name!, field: "account.name" };
  const hits = (await findWatchHits(tx, [value])).filter((h) => h.watch.account_id !== accountId);
  if (hits.length === 0) return [];
  const [row] = await tx.select().from(records)
    .where(and(eq(records.accountId, accountId), eq(records.environment, "live"), eq(records.visibility, "public"), eq(records.status, "active"),
      or(isNull(records.expiresAt), gt(records.expiresAt, at))))
    .orderBy(desc(records.createdAt)).limit(1);
  if (!row) return [];
  return fireWatches(tx, hits.map((h) => ({ watch: h.watch, r: { row }, how: h.how, v: { value: name!, field: "account.name" } })), at);
}
