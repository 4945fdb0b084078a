import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dataLayerTest, onPostgres } from "./setup";

/*
 * The directory's search (lib/public/directory/list-directory.ts) on both databases: whole words of
 * subject or claim, from `records.search_words` (migration 0032). A page is read either from the
 * newest listed records (two window sizes) or from the word index; these tests check that each gives
 * exactly the page a plain scan of every listed record would, and which index each reads. The
 * page as a visitor sees it is tests/api/directory.test.ts.
 */
const { db } = await dataLayerTest({ ownDatabase: "directory_search" });
const { records } = await import("@/drizzle/schema");
const { listDirectory, RECENT_WINDOW, DIRECTORY_PAGE } = await import("@/lib/public/directory/list-directory");
const { createAccount } = await import("@/lib/accounts/create-account");
const { verifiedOrganisationsQuery } = await import("@/lib/public/directory/verified-organisations");

const rowsOf = (res: unknown) => (Array.isArray(res) ? res : (res as { rows: unknown[] }).rows) as Record<string, unknown>[];
const accountId = (await createAccount(db, { email: `dir-${Date.now()}@example.test` })).accountId;

/** `n` listed company records, the k-th `created` k seconds after `from`: subject `${subject(k)}`, claim `${claim(k)}`. */
async function insert(prefix: string, n: number, from: string, subject: string, claim: string, status = "active") {
  await db.execute(sql`insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public, status, status_changed_at, issued_at, created_at)
    select ${prefix} || lpad(g::text, 6, '0'), ${accountId}, 'live', 'company_status', replace(${subject}, '{n}', g::text), replace(${claim}, '{n}', g::text),
           'participant_attested', 'public', '{}'::jsonb, ${status}, now(), now(), ${from}::timestamptz + g * interval '1 second'
    from generate_series(1, ${n}) g`);
}

/** Every page of a search, following the cursor. */
async function allPages(q: string, claimType?: string) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await listDirectory(db, { q, cursor, claim_type: claimType });
    expect(page.data.length).toBeLessThanOrEqual(DIRECTORY_PAGE);
    ids.push(...page.data.map((r) => r.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error("more than 100 pages");
}

/** What the directory must answer for `words`: every listed record holding all of them (a plain scan), newest first. */
async function byScan(words: string[]) {
  const res = await db.execute(sql`select id, subject, claim from ${records}
    where environment = 'live' and visibility = 'public' and status = 'active' and (expires_at is null or expires_at > now())
    order by created_at desc, id desc`);
  const split = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return rowsOf(res)
    .filter((r) => words.every((w) => split(`${r.subject} ${r.claim}`).includes(w)))
    .map((r) => r.id as string);
}

/** The plan of the index read (the second way), with sequential scans discouraged (a small table would be read whole). */
async function indexPlan(q: string): Promise<string> {
  const res = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return tx.execute(sql`explain select * from (select id, created_at from ${records}
      where environment = 'live' and visibility = 'public' and status = 'active' and (expires_at is null or expires_at > now())
        and search_words @@ plainto_tsquery('simple'::regconfig, regexp_replace(${q}, '[.@/:_-]+', ' ', 'g')) offset 0) m
      order by created_at desc, id desc limit 26`);
  });
  return rowsOf(res).map((r) => Object.values(r)[0]).join("\n");
}

describe("directory search by words", () => {
  it("finds whole words of subject or claim, in any order, case-insensitive; a domain's labels are words", async () => {
    await insert("vr_words_a", 1, "2026-01-01T00:00:00Z", "Zyxwvu Trading GmbH", "Registered at pay.zyxwvu-shop.example.");
    await insert("vr_words_b", 1, "2026-01-01T00:00:10Z", "Other Ltd", "Trades as ZYXWVU 100%_off.");
    await insert("vr_words_c", 1, "2026-01-01T00:00:20Z", "Zyxwvu Trading GmbH", "Registered.", "suspended"); // not listed
    const ids = async (q: string) => (await listDirectory(db, { q })).data.map((r) => r.id).sort();
    const a = "vr_words_a000001", b = "vr_words_b000001";
    expect(await ids("zyxwvu")).toEqual([a, b]);
    expect(await ids("TRADING zyxwvu")).toEqual([a]); // every word, any order
    expect(await ids("zyxwvu-shop.example")).toEqual([a]); // the domain's labels
    expect(await ids("https://pay.zyxwvu-shop.example/")).toEqual([a]); // a pasted address: its host
    expect(await ids("https://www.zyxwvu-shop.example")).toEqual([a]);
    expect(await ids("100 off")).toEqual([b]); // what lies between words does not matter
    expect(await ids("100%_off")).toEqual([b]);
    expect(await ids("wvu")).toEqual([]); // part of a word is not a word
    expect(await ids("zyxwvu nothing-else")).toEqual([]);
    expect(await ids("%%% ---")).toEqual([]); // no word at all: nothing, not everything
    expect(await ids("o'brien & (x | !y) <-> z:*")).toEqual([]); // tsquery syntax is text here
  });

  it("gives the same pages as a scan of every listed record, from the newest records or from the word index", async () => {
    // 3 × RECENT_WINDOW records: every one says "common"; 1 in 7 also "weekly" (a page among the
    // newest 500), 1 in 40 "monthly" (a few there, a page among the newest 1,500), 3 of the oldest "rareword".
    const n = 3 * RECENT_WINDOW;
    await insert("vr_window_", n, "2026-02-01T00:00:00Z", "Window {n} Ltd", "Common entry {n}.");
    await db.execute(sql`update ${records} set claim = claim || ' Weekly.' where id like 'vr_window_%' and substr(id, 11)::int % 7 = 0`);
    await db.execute(sql`update ${records} set claim = claim || ' Monthly.' where id like 'vr_window_%' and substr(id, 11)::int % 40 = 0`);
    await db.execute(sql`update ${records} set subject = subject || ' Rareword' where id in ('vr_window_000002', 'vr_window_000003', 'vr_window_000005')`);
    await db.execute(onPostgres ? sql`vacuum analyze records` : sql`analyze records`);

    const common = await listDirectory(db, { q: "common" }); // a full page among the newest: the first way
    expect(common.data.map((r) => r.id)).toEqual((await byScan(["common"])).slice(0, DIRECTORY_PAGE));
    expect(await allPages("rareword")).toEqual(await byScan(["rareword"])); // beyond the newest: the word index
    expect(await allPages("rareword")).toEqual(["vr_window_000005", "vr_window_000003", "vr_window_000002"]);
    const weekly = await allPages("Weekly entry"); // 214 matches: pages from the window and the index as the cursor moves back
    expect(weekly).toEqual(await byScan(["weekly", "entry"]));
    expect(weekly.length).toBe(Math.floor(n / 7));
    const monthly = await allPages("monthly");
    expect(monthly).toEqual(await byScan(["monthly"]));
    expect(monthly.length).toBe(Math.floor(n / 40));
    for (const w of ["weekly", "monthly", "rareword"]) expect(await allPages(w, "domain_ownership")).toEqual([]); // the kind filter, every way
  }, 120_000);

  it("reads the word index for a search and the newest-first index for a page", async () => {
    expect(await indexPlan("rareword")).toMatch(/records_search_words_idx/);
    const res = await db.execute(sql`explain select id from ${records}
      where environment = 'live' and visibility = 'public' and status = 'active' and (expires_at is null or expires_at > now())
      order by created_at desc, id desc limit 26`);
    const plan = rowsOf(res).map((r) => Object.values(r)[0]).join("\n");
    expect(plan).toMatch(/Index Scan Backward using records_listed_recent_idx/);
    expect(plan).not.toMatch(/Sort/);
  });

  it("finds verified organisations by the words of their legal name through the partial word index, not a scan", async () => {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`); // a handful of rows: without this the planner rightly scans
      const q = verifiedOrganisationsQuery(tx, "bright kettle").getSQL();
      return rowsOf(await tx.execute(sql.join([sql.raw("explain "), q]))).map((r) => Object.values(r)[0]).join("\n");
    });
    expect(plan).toMatch(/organisations_verified_name_words_idx/);
  });

  it("new rows go to GIN's pending list on PostgreSQL (autovacuum merges it), straight into the index on PGlite (no autovacuum)", async () => {
    const res = await db.execute(sql`select relname, reloptions::text as opts from pg_class where relname like 'records_%_idx' and relam = (select oid from pg_am where amname = 'gin') order by relname`);
    expect(rowsOf(res)).toEqual([
      { relname: "records_search_words_idx", opts: onPostgres ? "{fastupdate=on,gin_pending_list_limit=1024}" : "{fastupdate=false}" },
    ]);
  });
});
