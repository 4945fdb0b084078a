// The million-record haystack of `npm run bench` (docs/benchmarks.md, "At scale"): live,
// public, active records of one account written straight into a PostgreSQL bench database
// with INSERT … SELECT generate_series (no API, no per-row round trip), with what public
// reads look at: the record rows, one history entry each, lookup values (record_values) and
// a place in the W3C status lists (vc_status_entries). Transparency-log leaves are not
// seeded (a seeded record reads `transparency_log: null`, like a record issued before the log).
//
// Half the records are domain_ownership (`bench-<n>.example.com`, lookup value `website`),
// half company_status with company-like names built from word lists (so directory searches
// match a realistic share of rows, not one or all). Ids are `PRS-B` + 19 digits, so seeded
// ids never collide with issued ones. Created-at times go back one second per record.
//
// Used by scripts/bench.mjs; on its own:
//   node scripts/bench-seed.mjs --url postgres://… --account acc_… [--records 1000000]
import postgres from "postgres";

/** Words the company names are built from (first × second × suffix × n). */
export const NAME_WORDS = [
  ["Northern", "Atlas", "Blue", "Granite", "Harbour", "Summit", "Cedar", "Silver", "Pioneer", "Crown", "Meridian", "Oak",
    "Vertex", "Coastal", "Alpine", "Golden", "Union", "Quantum", "Royal", "Evergreen"],
  ["Logistics", "Foods", "Energy", "Software", "Textiles", "Holdings", "Capital", "Pharma", "Motors", "Media", "Analytics",
    "Minerals", "Farms", "Robotics", "Insurance", "Construction", "Telecom", "Retail", "Shipping", "Labs"],
  ["Ltd", "GmbH", "SA", "BV", "Inc", "Oy", "AB", "SRL"],
];

const arr = (xs) => `array[${xs.map((w) => `'${w}'`).join(",")}]`;

/** Seeded id of record n (1-based). */
export const seededId = (n) => `PRS-B${String(n).padStart(19, "0")}`;
/** Record n is a domain record when n is even; its domain. */
export const seededDomain = (n) => `bench-${n}.example.com`;

/** How many records the bench account already has seeded (0 for a fresh database). */
export async function seededCount(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [r] = await sql`select count(*)::int as n from records where id like 'PRS-B%' and id ~ '^PRS-B[0-9]{19}$'`;
    return r.n;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Seed records from+1 … to (to = the total wanted) for `accountId`. Returns seconds per step.
 * Each table is one statement over the whole range, in chunks of 250,000 so a run shows progress.
 */
export async function seedRecords(url, accountId, to, { from = 0, log = () => {} } = {}) {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { synchronous_commit: "off" } });
  const steps = {};
  const t = async (name, fn) => {
    const t0 = performance.now();
    await fn();
    steps[name] = Math.round((performance.now() - t0) / 100) / 10;
    log(`  seed ${name}: ${steps[name]} s`);
  };
  const [w1, w2, w3] = NAME_WORDS.map(arr);
  const CHUNK = 250_000;
  try {
    await sql`set maintenance_work_mem = '256MB'`;
    // Status-list places follow whatever the database gave out already (identity column).
    const [{ base }] = await sql`select coalesce(max(status_index) + 1, 0)::int - ${from}::int as base from vc_status_entries`;
    for (let lo = from; lo < to; lo += CHUNK) {
      const hi = Math.min(to, lo + CHUNK);
      await t(`records ${lo + 1}..${hi}`, () => sql.unsafe(`
        insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public,
                             status, status_changed_at, issued_at, valid_from, expires_at, created_at)
        select 'PRS-B' || lpad(g::text, 19, '0'), $1, 'live',
               case when g % 2 = 0 then 'domain_ownership' else 'company_status' end,
               case when g % 2 = 0 then 'bench-' || g || '.example.com'
                    else (${w1})[1 + g % 20] || ' ' || (${w2})[1 + (g / 20) % 20] || ' ' || g || ' ' || (${w3})[1 + g % 8] end,
               case when g % 2 = 0 then 'Controls bench-' || g || '.example.com.'
                    else (${w1})[1 + g % 20] || ' ' || (${w2})[1 + (g / 20) % 20] || ' ' || g || ' ' || (${w3})[1 + g % 8] || ' is active in its company register.' end,
               case when g % 2 = 0 then 'source_verified' else 'evidence_verified' end,
               'public', '{}'::jsonb, 'active', ts, ts, ts, ts + interval '2 years', ts
        from (select g, now() - make_interval(secs => g) as ts from generate_series($2::int, $3::int) g) s`, [accountId, lo + 1, hi]));
      await t(`history ${lo + 1}..${hi}`, () => sql`
        insert into record_history (record_id, status, at, reason, by)
        select 'PRS-B' || lpad(g::text, 19, '0'), 'active', now() - make_interval(secs => g), 'Issued.', 'bench'
        from generate_series(${lo + 1}::int, ${hi}::int) g`);
      await t(`lookup values ${lo + 1}..${hi}`, () => sql`
        insert into record_values (record_id, kind, value, field)
        select 'PRS-B' || lpad(g::text, 19, '0'), 'website', 'bench-' || g || '.example.com', 'subject'
        from generate_series(${lo + 1}::int, ${hi}::int) g where g % 2 = 0`);
      await t(`status-list places ${lo + 1}..${hi}`, () => sql`
        insert into vc_status_entries (record_id, status_index)
        select 'PRS-B' || lpad(g::text, 19, '0'), ${base}::int + g - 1 from generate_series(${lo + 1}::int, ${hi}::int) g`);
      await sql`select setval(pg_get_serial_sequence('vc_status_entries', 'status_index'), (select max(status_index) from vc_status_entries))`;
    }
    return { ...steps, ...(await settleSeeded(url, { log, force: true })) };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The tables the seed writes. */
export const SEEDED_TABLES = ["records", "record_history", "record_values", "vc_status_entries"];

/**
 * Leave the seeded tables as a long-running database would have them before anything is
 * measured: VACUUM (ANALYZE) — visibility map and hint bits set, statistics current — then a
 * CHECKPOINT. Without it the measured runs pay for the seed: the first read of each freshly
 * inserted row sets its hint bits (a page write), an insert-triggered autovacuum of a
 * million-row table starts within autovacuum_naptime (a minute) of the seed when autovacuum is
 * on, and the seed's dirty pages are flushed by the next checkpoint — each a once-off burst of
 * background work in the middle of a run. Runs when `force`, or when a table has had more
 * than 10 % of its rows (and at least 10,000) inserted since its last vacuum — e.g. a kept
 * database seeded by an earlier version of the seed, which only analysed.
 */
export async function settleSeeded(url, { log = () => {}, force = false } = {}) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const steps = {};
  try {
    const stale = await sql`
      select relname from pg_stat_user_tables
      where relname in ${sql(SEEDED_TABLES)} and n_ins_since_vacuum > greatest(10000, 0.1 * n_live_tup)`;
    if (!force && stale.length === 0) return steps;
    const tables = force ? SEEDED_TABLES : stale.map((r) => r.relname);
    let t0 = performance.now();
    await sql`set maintenance_work_mem = '256MB'`;
    for (const table of tables) await sql.unsafe(`vacuum (analyze) ${table}`);
    steps.vacuum_analyze = Math.round((performance.now() - t0) / 100) / 10;
    log(`  seed vacuum (analyze) ${tables.join(", ")}: ${steps.vacuum_analyze} s`);
    t0 = performance.now();
    try {
      await sql`checkpoint`;
      steps.checkpoint = Math.round((performance.now() - t0) / 100) / 10;
      log(`  seed checkpoint: ${steps.checkpoint} s`);
    } catch (e) {
      log(`  seed checkpoint skipped (${e?.message ?? e}): needs a superuser or pg_checkpoint`);
    }
    return steps;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, d) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : d;
  };
  const url = arg("url");
  const account = arg("account");
  const records = Number(arg("records", "1000000"));
  if (!url || !account) {
    console.error("usage: node scripts/bench-seed.mjs --url postgres://… --account acc_… [--records 1000000]");
    process.exit(2);
  }
  const from = await seededCount(url);
  const t0 = performance.now();
  if (from < records) await seedRecords(url, account, records, { from, log: console.log });
  else await settleSeeded(url, { log: console.log });
  console.log(`seeded ${records - from} records in ${Math.round((performance.now() - t0) / 1000)} s`);
}
