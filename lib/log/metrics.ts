import { Counter, Histogram, Registry } from "prom-client";

/*
 * The Prometheus registry of this process and the counters the layers above bump: API requests
 * by route and status with their latency (lib/http/handler.ts), re-check outcomes
 * (lib/records). What is read at scrape time, and the scrape answer, are lib/server/metrics.ts.
 */
type Metrics = { registry: Registry; requests: Counter<"route" | "method" | "status">; latency: Histogram<"route" | "method">; rechecks: Counter<"outcome"> };
const g = globalThis as unknown as { __prsMetrics?: Metrics };

const ID_SEGMENT = /^(PRS-[0-9A-Z]{20}|(wch|dch|wh|whd|wha|acct|key|evt|bat|rep)_[A-Za-z0-9]+)$/;

/** A request path as a route template: ids become `{id}`, a mandate key read-back `{key_id}`; other paths keep their literal segments. */
export function routeOf(pathname: string): string {
  const parts = pathname.split("/").filter(Boolean);
  if (parts[0] === "keys" && parts.length === 2) return "/keys/{key_id}";
  if (parts[0] === "keys" && parts.length === 3) return "/keys/{account_id}/{key_id}";
  if (parts[0] === "api" && parts[1] === "v1" && parts[2] === "mandate-keys" && parts.length === 4) return "/api/v1/mandate-keys/{key_id}";
  return `/${parts.map((p) => (ID_SEGMENT.test(p) ? "{id}" : p.length > 64 ? "{long}" : p)).join("/")}`;
}

/** The one registry and its counters (kept on globalThis: Next.js may load this module more than once). */
export function metrics(): Metrics {
  if (g.__prsMetrics) return g.__prsMetrics;
  const registry = new Registry();
  const requests = new Counter({ name: "prs_http_requests_total", help: "API requests answered, by route, method and status.", labelNames: ["route", "method", "status"] as const, registers: [registry] });
  const latency = new Histogram({
    name: "prs_http_request_duration_seconds", help: "API request latency, by route and method.", labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry],
  });
  const rechecks = new Counter({ name: "prs_recheck_outcomes_total", help: "Re-checks of issued records run by this process, by outcome.", labelNames: ["outcome"] as const, registers: [registry] });
  g.__prsMetrics = { registry, requests, latency, rechecks };
  return g.__prsMetrics;
}

/** Count one answered API request (lib/http/handler.ts). Never throws. */
export function observeRequest(req: Request, status: number, startedAt: number) {
  try {
    const m = metrics();
    const route = routeOf(new URL(req.url).pathname);
    m.requests.inc({ route, method: req.method, status: String(status) });
    m.latency.observe({ route, method: req.method }, (performance.now() - startedAt) / 1000);
  } catch {
    // metrics never break an answer
  }
}
