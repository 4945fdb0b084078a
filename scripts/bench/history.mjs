// history: a certificate whose record has a long history against a fresh record's, timed one
// GET at a time: the ratio of their medians. Skipped on PGlite (the history is written
// straight into the database).
import postgres from "postgres";
import { round } from "../bench-common.mjs";
import { RECORD_BODY, config, log, pct, timedGet } from "./common.mjs";

export const name = "history";
export const description = "/r/<id> of a record with a long history (BENCH_HISTORY_ENTRIES, 10,000) over a fresh record's: p50 ratio (PostgreSQL)";
/** Runs between the run's two bare-route measurements. */
export const bracketed = true;
export const figures = [
  { name: "certificate, long history / fresh", unit: "×", get: (r) => r.certificate_history.ratio },
];

/**
 * A certificate (/r/{id}) whose record has HISTORY_ENTRIES history entries against a fresh
 * record's: the long history is written straight into record_history (suspend/reinstate
 * pairs, ending active). 5 warm-up GETs, then 30 timed, one at a time, alternating.
 */
async function measureHistory(url, key, runId, databaseUrl) {
  const mk = async (n) => {
    const r = await fetch(`${url}/api/v1/records`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `hist-${runId}-${n}` },
      body: JSON.stringify({ ...RECORD_BODY, subject: `History ${n} Ltd` }),
    });
    const b = await r.json();
    if (r.status !== 201) throw new Error(`creating a history record failed: ${r.status}`);
    return b.verification_id;
  };
  if (!databaseUrl) return { skipped: "needs PostgreSQL (the history is written straight into the database)" };
  const fresh = await mk("fresh");
  const long = await mk("long");
  {
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql`insert into record_history (record_id, status, at, reason, by)
        select ${long}, case when g % 2 = 1 then 'suspended' else 'active' end, now() - make_interval(secs => ${config.HISTORY_ENTRIES} - g),
               'Bench flip ' || g, 'bench' from generate_series(1, ${config.HISTORY_ENTRIES}::int) g`;
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
  for (let i = 0; i < 5; i++) {
    await timedGet(`${url}/r/${fresh}`);
    await timedGet(`${url}/r/${long}`);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < 30; i++) {
    a.push(await timedGet(`${url}/r/${fresh}`));
    b.push(await timedGet(`${url}/r/${long}`));
  }
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  const out = {
    history_entries: config.HISTORY_ENTRIES, fresh_p50_ms: round(pct(a, 50), 1), long_p50_ms: round(pct(b, 50), 1),
    fresh_p99_ms: round(pct(a, 99), 1), long_p99_ms: round(pct(b, 99), 1),
  };
  out.ratio = round(out.long_p50_ms / out.fresh_p50_ms, 2);
  out.target_ratio = 1.5;
  out.pass = out.ratio <= 1.5;
  log(`  certificate: fresh p50 ${out.fresh_p50_ms} ms, with ${config.HISTORY_ENTRIES} history entries p50 ${out.long_p50_ms} ms = ${out.ratio}x; target <= 1.5x: ${out.pass ? "PASS" : "MISSED"}`);
  return out;
}

export async function run(ctx) {
  ctx.out.certificate_history = await measureHistory(ctx.url, ctx.key, ctx.tag, ctx.db?.url);
}

export function judge(ctx) {
  const h = ctx.out.certificate_history;
  if (h.skipped) return;
  ctx.targets.certificate_history_ratio = { op: "<=", target: 1.5, value: h.ratio, pass: h.pass };
}
