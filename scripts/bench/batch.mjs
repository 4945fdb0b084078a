// batch: a 250-row batch end to end over HTTP, timed one call at a time: the median,
// absolutely and over the bare route's median timed alike between the calls.
import { median, round } from "../bench-common.mjs";
import { LATENCY, RECORD_BODY, bareOneAtATime, judgeLatency, log, pct } from "./common.mjs";

export const name = "batch";
export const description = "POST /api/v1/records/batch with 250 rows: median of 12 timed calls";
export const figures = [
  { name: "batch of 250, median", unit: "ms", get: (r) => r.batch_250.median_ms },
  { name: "bare route one at a time, median", unit: "ms", get: (r) => r.batch_250.bare_one_at_a_time.median_ms },
  { name: "batch median / bare one at a time", unit: "×", get: (r) => r.batch_250.median_over_bare },
];

/**
 * A 250-row batch, end to end over HTTP: one warm-up, then `runs` timed calls, each followed by
 * 10 GETs of the bare route timed one at a time (the ratio's yardstick, measured alike).
 */
async function measureBatch(url, key, tag, runs = 8) {
  const body = JSON.stringify({ records: Array.from({ length: 250 }, (_, i) => ({ ...RECORD_BODY, subject: `Batch ${i} Ltd` })) });
  const times = [];
  const bare = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const r = await fetch(`${url}/api/v1/records/batch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `batch-${tag}-${i}` },
      body,
    });
    const answer = await r.json();
    const ms = performance.now() - t0;
    if (r.status !== 200 || answer.totals?.issued !== 250) throw new Error(`batch failed: ${r.status} ${JSON.stringify(answer).slice(0, 300)}`);
    if (i > 0) times.push(ms); // the first call warms up
    const b = await bareOneAtATime(url, 10);
    if (i > 0) bare.push(...b);
  }
  times.sort((a, b) => a - b);
  const med = median(times);
  const bareMedian = median(bare);
  return {
    runs, median_ms: round(med, 0), min_ms: round(times[0], 0), max_ms: round(times.at(-1), 0), target_ms: LATENCY.batch.ms, pass: med < LATENCY.batch.ms,
    bare_one_at_a_time: { requests: bare.length, median_ms: round(bareMedian, 2), p99_ms: round(pct(bare.sort((a, b) => a - b), 99), 2) },
    median_over_bare: round(med / bareMedian, 1),
  };
}

export async function run(ctx) {
  const batch = await measureBatch(ctx.url, ctx.key, ctx.tag, 12);
  ctx.out.batch_250 = batch;
  log(`  batch      250 rows: median ${batch.median_ms} ms (min ${batch.min_ms}, max ${batch.max_ms}) over ${batch.runs} runs; bare route one at a time ${batch.bare_one_at_a_time.median_ms} ms → ${batch.median_over_bare}×; target < ${batch.target_ms} ms: ${batch.pass ? "PASS" : "MISSED"}  [bare ${ctx.bareRps} req/s]`);
}

export function judge(ctx) {
  const batch = ctx.out.batch_250;
  judgeLatency(ctx, "batch_250_median", LATENCY.batch, batch.median_ms, batch.median_over_bare, batch.bare_one_at_a_time.median_ms);
}
