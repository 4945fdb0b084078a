import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dataLayerTest, onPostgres } from "./setup";

/*
 * The directory's search (`subject ILIKE %q% OR claim ILIKE %q%`, lib/directory/list-directory.ts)
 * goes through the trigram indexes of migration 0028 on both databases (pg_trgm: PostgreSQL's
 * contrib, PGlite's '@electric-sql/pglite/contrib/pg_trgm'): the plan of the query the directory
 * runs names them. The results themselves are those of tests/api/directory.test.ts.
 */
const { db } = await dataLayerTest({ ownDatabase: "directory_search" });
const { records, accounts } = await import("@/drizzle/schema");
const { listDirectory } = await import("@/lib/directory/list-directory");

/** The plan of `listDirectory`'s query for `q` (none: the unfiltered page), with sequential scans discouraged (a small table would be read whole). */
async function planOf(q: string | null): Promise<string> {
  // The query listDirectory runs, written out (listedNow and the search condition).
  const pattern = `%${q}%`;
  const search = q === null ? sql`` : sql`and (subject ilike ${pattern} or claim ilike ${pattern})`;
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const res = await tx.execute(sql`explain select id from ${records}
      where environment = 'live' and visibility = 'public' and status = 'active' and (expires_at is null or expires_at > now())
        ${search}
      order by created_at desc, id desc limit 26`);
    return (Array.isArray(res) ? res : (res as { rows: unknown[] }).rows) as Record<string, string>[];
  });
  return rows.map((r) => Object.values(r)[0]).join("\n");
}

describe("directory search through the trigram indexes", () => {
  it("pg_trgm is installed and the plan uses records_subject_trgm_idx and records_claim_trgm_idx", async () => {
    const ext = (await db.execute(sql`select extname from pg_extension where extname = 'pg_trgm'`)) as unknown;
    const extRows = Array.isArray(ext) ? ext : (ext as { rows: unknown[] }).rows;
    expect(extRows.length).toBe(1);
    // Enough rows that an index is worth it even without the hint.
    const [acct] = await db.select({ id: accounts.id }).from(accounts).limit(1);
    let accountId = acct?.id;
    if (!accountId) {
      const { createAccount } = await import("@/lib/accounts/create-account");
      accountId = (await createAccount(db, { email: `dir-${Date.now()}@example.test` })).accountId;
    }
    await db.execute(sql`insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public, status, status_changed_at, issued_at)
      select 'vr_dirsearch' || g, ${accountId}, 'live', 'company_status', md5(g::text) || ' Ltd', md5('c' || g) || ' is active.',
             'participant_attested', 'public', '{}'::jsonb, 'active', now(), now()
      from generate_series(1, 3000) g`);
    // On PostgreSQL the new rows wait in GIN's pending list until (auto)vacuum merges it (migration 0031).
    await db.execute(onPostgres ? sql`vacuum analyze records` : sql`analyze records`);
    const plan = await planOf("acme");
    expect(plan).toMatch(/records_subject_trgm_idx/);
    expect(plan).toMatch(/records_claim_trgm_idx/);
    expect(plan).not.toMatch(/Seq Scan on records/);
  }, 120_000);

  it("a page of the directory is read from records_listed_recent_idx, newest first, never sorted whole", async () => {
    const plan = await planOf(null);
    expect(plan).toMatch(/Index Scan Backward using records_listed_recent_idx/);
    expect(plan).not.toMatch(/Sort/);
  });

  it("new rows go to GIN's pending list on PostgreSQL (autovacuum merges it), straight into the index on PGlite (no autovacuum)", async () => {
    const res = (await db.execute(sql`select relname, reloptions::text as opts from pg_class where relname in ('records_subject_trgm_idx', 'records_claim_trgm_idx') order by relname`)) as unknown;
    const rows = (Array.isArray(res) ? res : (res as { rows: unknown[] }).rows) as { relname: string; opts: string }[];
    expect(rows.map((r) => r.relname)).toEqual(["records_claim_trgm_idx", "records_subject_trgm_idx"]);
    for (const r of rows) expect(r.opts).toBe(onPostgres ? "{fastupdate=on,gin_pending_list_limit=1024}" : "{fastupdate=false}");
  });

  it("the directory finds what ILIKE finds: substrings in either column, case-insensitive, search characters literal", async () => {
    const [acct] = await db.select({ id: accounts.id }).from(accounts).limit(1);
    await db.execute(sql`insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public, status, status_changed_at, issued_at) values
      ('vr_dirsearch_a', ${acct!.id}, 'live', 'company_status', 'Zyxwvu Trading GmbH', 'Registered.', 'participant_attested', 'public', '{}'::jsonb, 'active', now(), now()),
      ('vr_dirsearch_b', ${acct!.id}, 'live', 'company_status', 'Other Ltd', 'Trades as zYXwvu 100%_off.', 'participant_attested', 'public', '{}'::jsonb, 'active', now(), now())`);
    const ids = async (q: string) => (await listDirectory(db, { q })).data.map((r) => r.id).sort();
    expect(await ids("zyxwvu")).toEqual(["vr_dirsearch_a", "vr_dirsearch_b"]);
    expect(await ids("wvu trad")).toEqual(["vr_dirsearch_a"]);
    expect(await ids("100%_off")).toEqual(["vr_dirsearch_b"]);
    expect(await ids("100%Xoff")).toEqual([]);
    expect(await ids("zy")).toEqual(["vr_dirsearch_a", "vr_dirsearch_b"]); // shorter than a trigram: still found
  });
});
