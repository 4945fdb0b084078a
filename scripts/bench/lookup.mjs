// lookup: GET /api/v1/lookup over the seeded haystack, at saturation (req/s over the bare
// route's) and at a held rate, open loop (p99, absolutely and over the bare route's p99 at the
// same rate). PostgreSQL only.
import { seededDomain } from "../bench-seed.mjs";
import { LATENCY, heldCase, heldClean, judgeLatency, judgeRatio, measure, ratio } from "./common.mjs";

export const name = "lookup";
export const description = "GET /api/v1/lookup over the seeded records: req/s at saturation, and p99 at a held rate (PostgreSQL)";
/** Reads the seeded haystack: PostgreSQL only. */
export const scale = true;
/** Runs between the run's two bare-route measurements (their average is its ratio's baseline). */
export const bracketed = true;
/** Its held-rate result in a run (its rate is the calibration's `lookup`). */
export const held = (run) => run.lookup_held;
export const figures = [
  { name: "lookup, saturated", unit: "req/s", get: (r) => r.routes.lookup.rps_mean },
  { name: "lookup / live", unit: "×", get: (r) => r.ratios.lookup_over_live },
  { name: "bare route at lookup's rate, p99", unit: "ms", get: (r) => r.lookup_held.bare_at_rate.latency_ms.p99 },
  { name: "lookup held, p50", unit: "ms", get: (r) => r.lookup_held.latency_ms.p50 },
  { name: "lookup held, p99", unit: "ms", get: (r) => r.lookup_held.latency_ms.p99 },
  { name: "lookup held, p99 / bare p99", unit: "×", get: (r) => r.lookup_held.p99_over_bare },
];

export async function run(ctx) {
  const { server, url, seeded, routes, out, cal, watch } = ctx;
  // Every request asks for another of the seeded domains (in the form a visitor pastes it), so
  // each answer is an index probe of its own.
  const pick = () => seededDomain(2 * (1 + Math.floor(Math.random() * Math.floor(seeded / 2))));
  const lookupRequests = () => ({
    url,
    requests: [{
      method: "GET",
      path: "/api/v1/lookup",
      setupRequest: (req) => ({ ...req, path: `/api/v1/lookup?q=${encodeURIComponent(`https://www.${pick()}/`)}` }),
    }],
  });
  routes.lookup = await measure(server, "lookup", lookupRequests);
  routes.lookup.seeded_records = seeded;
  // Latency at a held rate, open loop, beside the bare route at the same rate.
  out.lookup_held = await heldCase(url, { rate: cal.lookup, label: "lookup", watch, next: () => `/api/v1/lookup?q=${encodeURIComponent(`https://www.${pick()}/`)}` });
}

export function judge(ctx) {
  const { out, routes, targets } = ctx;
  out.ratios.lookup_over_live = ratio(routes.lookup.rps_mean, out.ratios.live_baseline_rps);
  targets.lookup_over_live = judgeRatio(ctx, "lookup_over_live", "lookup");
  const h = out.lookup_held;
  judgeLatency(ctx, "lookup_p99", LATENCY.lookup, h.latency_ms.p99, h.p99_over_bare, h.bare_at_rate.latency_ms.p99, { clean: heldClean(h), rate: ctx.cal.lookup });
}
