// The "certificate with a long history" case of `npm run bench` (issue 29): one record with
// BENCH_HISTORY_ENTRIES (default 10,000) lifecycle entries and a fresh one, their certificate
// pages (/r/{id}) measured alike; the target is long ≤ 1.5 × fresh (mean latency).
// The entries are written straight into record_history (INSERT only: the table is
// append-only) through the server's own database — PostgreSQL at its URL, or the embedded
// PGlite through the unix socket it serves in DATA_DIR — since the API allows an owner
// LIFECYCLE_CHANGES_PER_HOUR changes an hour.
import path from "node:path";
import postgres from "postgres";

export const HISTORY_ENTRIES = Number(process.env.BENCH_HISTORY_ENTRIES || 10_000);
const TARGET_RATIO = 1.5;

function sqlFor(server, databaseUrl) {
  if (databaseUrl) return postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const socket = path.join(server.dataDir, "pglite-socket", ".s.PGSQL.5432");
  return postgres({ path: socket, user: "postgres", database: "template1", max: 1, prepare: true, onnotice: () => {} });
}

/**
 * `issue()` makes a fresh public record and answers its id; `measure(label, make)` is the
 * bench's autocannon run. Entries alternate suspended/active (ending active, as the row
 * is), spread over the time between the record's issue and now.
 */
export async function measureLongHistory({ server, databaseUrl, issue, measure, log, entries = HISTORY_ENTRIES }) {
  const fresh = await issue();
  const long = await issue();
  const sql = sqlFor(server, databaseUrl);
  const even = entries - (entries % 2);
  try {
    const t0 = performance.now();
    await sql`
      insert into record_history (record_id, status, at, reason, by)
      select ${long}, case when g % 2 = 1 then 'suspended' else 'active' end,
             r.issued_at + (now() - r.issued_at) * g / (${even}::int + 1),
             case when g % 2 = 1 then 'bench suspend' else 'bench reinstate' end, 'system:bench'
      from generate_series(1, ${even}::int) g, records r where r.id = ${long}`;
    await sql`analyze record_history`;
    log(`  wrote ${even} history entries for ${long} in ${Math.round(performance.now() - t0)} ms`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const url = server.baseUrl;
  const freshRun = await measure("cert-new", () => ({ url: `${url}/r/${fresh}`, connections: 4 }));
  const longRun = await measure("cert-10k", () => ({ url: `${url}/r/${long}`, connections: 4 }));
  const value = freshRun.latency_ms.mean && longRun.latency_ms.mean ? Math.round((longRun.latency_ms.mean / freshRun.latency_ms.mean) * 1000) / 1000 : null;
  const clean = (r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
  const pass = value !== null && value <= TARGET_RATIO && clean(freshRun) && clean(longRun);
  log(`  certificate with ${even} history entries: ${value}× the fresh one's mean latency; target ≤ ${TARGET_RATIO}: ${pass ? "PASS" : "MISSED"}`);
  return {
    history_entries: even,
    fresh: freshRun,
    long: longRun,
    target: { basis: "mean latency, long over fresh", target: TARGET_RATIO, value, pass },
  };
}
