// directory: /directory searches over the seeded haystack at a held rate, open loop: p99,
// absolutely and over the bare route's p99 at the same rate. PostgreSQL only.
import { seededDomain } from "../bench-seed.mjs";
import { LATENCY, heldCase, heldClean, judgeLatency, timedGet } from "./common.mjs";

export const name = "directory";
export const description = "/directory searches over the seeded records: p99 at a held rate (PostgreSQL)";
/** Reads the seeded haystack: PostgreSQL only. */
export const scale = true;
/** Runs between the run's two bare-route measurements. */
export const bracketed = true;
/** Its held-rate result in a run (its rate is the calibration's `directory`). */
export const held = (run) => run.directory;
export const figures = [
  { name: "bare route at directory's rate, p99", unit: "ms", get: (r) => r.directory.bare_at_rate.latency_ms.p99 },
  { name: "directory held, p50", unit: "ms", get: (r) => r.directory.latency_ms.p50 },
  { name: "directory held, p99", unit: "ms", get: (r) => r.directory.latency_ms.p99 },
  { name: "directory held, p99 / bare p99", unit: "×", get: (r) => r.directory.p99_over_bare },
];

/**
 * Directory search at a steady rate (open loop) over the seeded haystack: each request searches
 * another term — a company word (matches ~1/20 of the company records), a whole company name of
 * one record, or a domain — so the answer is never the same page.
 */
async function measureDirectory(url, seeded, rate, watch) {
  const words = ["Harbour", "Granite", "Logistics", "Robotics", "Meridian", "Textiles", "Pioneer", "Pharma"];
  const next = (i) => {
    const n = 1 + Math.floor(Math.random() * seeded);
    const q = i % 3 === 0 ? words[i % words.length] : i % 3 === 1 ? `${n} ` : seededDomain(n - (n % 2) || 2);
    return `/directory?q=${encodeURIComponent(q)}`;
  };
  // Warm-up (discarded): the page's modules load on its first request, which is not a search's cost.
  for (let i = 0; i < 9; i++) await timedGet(url + next(i));
  return heldCase(url, { rate, label: "directory", next, watch });
}

export async function run(ctx) {
  ctx.out.directory = await measureDirectory(ctx.url, ctx.seeded, ctx.cal.directory, ctx.watch);
}

export function judge(ctx) {
  const d = ctx.out.directory;
  judgeLatency(ctx, "directory_p99", LATENCY.directory, d.latency_ms.p99, d.p99_over_bare, d.bare_at_rate.latency_ms.p99, { clean: heldClean(d), rate: ctx.cal.directory });
}
