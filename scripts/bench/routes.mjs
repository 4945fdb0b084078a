// routes: the status route and record creation at saturation (closed loop, autocannon), as
// ratios of their req/s to the bare route's (the average of the run's two bare-route runs).
import { RECORD_BODY, judgeRatio, measure, ratio } from "./common.mjs";

export const name = "routes";
export const description = "GET /api/v1/records/<id>/status and POST /api/v1/records at saturation, req/s over the bare route's";
/** Runs between the run's two bare-route measurements (their average is its ratios' baseline). */
export const bracketed = true;
export const figures = [
  { name: "status", unit: "req/s", get: (r) => r.routes.status.rps_mean },
  { name: "post", unit: "req/s", get: (r) => r.routes.post.rps_mean },
  { name: "status / live", unit: "×", get: (r) => r.ratios.status_over_live },
  { name: "post / live", unit: "×", get: (r) => r.ratios.post_over_live },
];

export async function run(ctx) {
  const { server, url, key, routes, tag } = ctx;
  routes.status = await measure(server, "status", () => ({ url: `${url}/api/v1/records/${ctx.id}/status` }));
  let seq = 0;
  const body = JSON.stringify(RECORD_BODY);
  routes.post = await measure(server, "post", () => ({
    url,
    requests: [
      {
        method: "POST",
        path: "/api/v1/records",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body,
        // Called before every request: a fresh Idempotency-Key each time, so no answer is a replay.
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, "Idempotency-Key": `bench-${tag}-${++seq}` } }),
      },
    ],
  }));
  // A replay would answer 200 (Idempotent-Replayed) instead of 201: every POST must have issued.
  routes.post.replayed_200 = routes.post.status_codes["200"] ?? 0;
  routes.post.issued_201 = routes.post.status_codes["201"] ?? 0;
}

export function judge(ctx) {
  const { out, routes, targets } = ctx;
  out.ratios.status_over_live = ratio(routes.status.rps_mean, out.ratios.live_baseline_rps);
  out.ratios.post_over_live = ratio(routes.post.rps_mean, out.ratios.live_baseline_rps);
  targets.status_over_live = judgeRatio(ctx, "status_over_live", "status");
  targets.post_over_live = judgeRatio(ctx, "post_over_live", "post");
}
