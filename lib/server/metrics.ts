import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { getDb, rowsOf } from "@/lib/db/client";
import { logConflict } from "@/lib/tlog/health";
import { witnessStates } from "@/lib/tlog/witness";

/*
 * Prometheus metrics of this process (GET /api/metrics, behind METRICS_TOKEN): API requests
 * by route and status with their latency, and — read from the database at scrape time, so
 * every instance reports the same — the outbox backlog, failed webhook deliveries, the age of
 * the oldest submission waiting for a reviewer, and this process's re-check outcomes.
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

export function metrics(): Metrics {
  if (g.__prsMetrics) return g.__prsMetrics;
  const registry = new Registry();
  const requests = new Counter({ name: "prs_http_requests_total", help: "API requests answered, by route, method and status.", labelNames: ["route", "method", "status"] as const, registers: [registry] });
  const latency = new Histogram({
    name: "prs_http_request_duration_seconds", help: "API request latency, by route and method.", labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry],
  });
  const rechecks = new Counter({ name: "prs_recheck_outcomes_total", help: "Re-checks of issued records run by this process, by outcome.", labelNames: ["outcome"] as const, registers: [registry] });
  const fromDb = (name: string, help: string, query: ReturnType<typeof sql>) =>
    new Gauge({
      name, help, registers: [registry],
      async collect() {
        try {
          const rows = rowsOf<{ v: number | null }>(await (await getDb()).execute(query));
          this.set(Number(rows[0]?.v ?? 0));
        } catch {
          this.set(Number.NaN);
        }
      },
    });
  fromDb("prs_outbox_undispatched", "Events in the outbox not yet fanned out to webhooks.", sql`select count(*)::int as v from events where dispatched_at is null`);
  fromDb("prs_webhook_deliveries_pending", "Webhook deliveries waiting to be sent or retried.", sql`select count(*)::int as v from webhook_deliveries where status = 'pending'`);
  fromDb("prs_webhook_deliveries_failed", "Webhook deliveries that failed for good.", sql`select count(*)::int as v from webhook_deliveries where status = 'failed'`);
  fromDb("prs_review_queue_size", "Submissions waiting for a reviewer.", sql`select count(*)::int as v from records where status = 'pending_review'`);
  fromDb("prs_review_queue_oldest_age_seconds", "Age of the oldest submission waiting for a reviewer (0 when none).",
    sql`select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as v from records where status = 'pending_review'`);
  new Gauge({
    name: "prs_tlog_conflict", help: "1 when this process stopped signing checkpoints because the stored transparency log disagrees with its entries.",
    registers: [registry],
    collect() {
      this.set(logConflict() ? 1 : 0);
    },
  });
  new Gauge({
    name: "prs_tlog_witness_size", help: "Per witness of LOG_WITNESSES: the tree size it last cosigned.",
    labelNames: ["witness"], registers: [registry],
    async collect() {
      for (const w of await witnessStates(await getDb()).catch(() => [])) this.set({ witness: w.name }, w.size);
    },
  });
  new Gauge({
    name: "prs_tlog_witness_failing", help: "Per witness of LOG_WITNESSES: 1 when its last add-checkpoint failed or was refused (log_witness_state.last_error).",
    labelNames: ["witness"], registers: [registry],
    async collect() {
      for (const w of await witnessStates(await getDb()).catch(() => [])) this.set({ witness: w.name }, w.lastError ? 1 : 0);
    },
  });
  g.__prsMetrics = { registry, requests, latency, rechecks };
  return g.__prsMetrics;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The scrape answer for `Authorization: Bearer <METRICS_TOKEN>`: 404 when no token is configured, 401 for another. */
export async function metricsAnswer(authorization: string | null): Promise<Response> {
  const token = getEnv().METRICS_TOKEN;
  if (!token) throw new ApiError("not_found", "Metrics are not enabled on this server (METRICS_TOKEN).");
  const given = /^Bearer (.+)$/.exec(authorization ?? "")?.[1] ?? "";
  if (!same(given, token)) throw new ApiError("invalid_api_key", "Send the metrics token as a bearer token.");
  const m = metrics();
  return new Response(await m.registry.metrics(), { headers: { "Content-Type": m.registry.contentType, "Cache-Control": "no-store" } });
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
