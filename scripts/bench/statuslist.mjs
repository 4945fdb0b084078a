// statuslist: a W3C status list fetched right after a status change, timed one request at a
// time: p50, absolutely and over the bare route's median timed alike. PostgreSQL only.
import { median, round } from "../bench-common.mjs";
import { seededId } from "../bench-seed.mjs";
import { LATENCY, admin, bareOneAtATime, judgeLatency, log, pct, timedGet } from "./common.mjs";

export const name = "statuslist";
export const description = "a status list fetched right after a seeded record is suspended or reinstated: p50 (PostgreSQL)";
/** Reads the seeded haystack: PostgreSQL only. */
export const scale = true;
/** Runs between the run's two bare-route measurements. */
export const bracketed = true;
export const figures = [
  { name: "status list after a change, p50", unit: "ms", get: (r) => r.status_list.p50_ms },
  { name: "status list p50 / bare one at a time", unit: "×", get: (r) => r.status_list.p50_over_bare },
];

/**
 * A status list's answer right after a status change: a seeded record is suspended (and, the
 * next time, reinstated) by the staff command, then its list is fetched at once, timed; 10
 * changes. The list is fetched once before (warm), so each timing is "after a change".
 */
async function measureStatusList(server, url) {
  const times = [];
  const listOf = 0; // the first seeded records sit in list 0 (status indexes from 0 in a fresh database)
  await timedGet(`${url}/api/v1/status-lists/suspension/${listOf}`);
  const bare = [];
  for (let i = 0; i < 10; i++) {
    const id = seededId(2 + 2 * i);
    for (const op of ["suspend", "reinstate"]) {
      await admin(server, ["record", op, "--id", id, "--reason", `bench ${op} ${i}`]);
      times.push(await timedGet(`${url}/api/v1/status-lists/suspension/${listOf}`));
      bare.push(...(await bareOneAtATime(url, 3))); // the ratio's yardstick, timed alike
    }
  }
  const s = [...times].sort((a, b) => a - b);
  const b = [...bare].sort((x, y) => x - y);
  const out = {
    changes: times.length, p50_ms: round(pct(s, 50), 1), max_ms: round(s.at(-1), 1), target_ms: LATENCY.status_list.ms,
    bare_one_at_a_time: { requests: b.length, median_ms: round(median(b), 2), p99_ms: round(pct(b, 99), 2) },
  };
  out.p50_over_bare = round(median(s) / median(b), 1);
  out.pass = out.p50_ms < LATENCY.status_list.ms;
  log(`  status list after a change: p50 ${out.p50_ms} ms (bare route one at a time ${out.bare_one_at_a_time.median_ms} ms: ${out.p50_over_bare}×), max ${out.max_ms} ms over ${times.length} changes; target < ${LATENCY.status_list.ms} ms: ${out.pass ? "PASS" : "MISSED"}`);
  return out;
}

export async function run(ctx) {
  ctx.out.status_list = await measureStatusList(ctx.server, ctx.url);
}

export function judge(ctx) {
  const s = ctx.out.status_list;
  judgeLatency(ctx, "status_list_after_change_p50", LATENCY.status_list, s.p50_ms, s.p50_over_bare, s.bare_one_at_a_time.median_ms);
}
