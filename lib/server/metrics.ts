import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { Gauge, type Registry } from "prom-client";
import { getDb, rowsOf } from "@/lib/db/client";
import { metrics } from "@/lib/log/metrics";
import { logConflict } from "@/lib/tlog/health";
import { witnessStates } from "@/lib/tlog/witness";

/*
 * GET /api/metrics (behind METRICS_TOKEN): the counters of lib/log/metrics.ts and — read from
 * the database at scrape time, so every instance reports the same — the outbox backlog, failed
 * webhook deliveries, the age of the oldest submission waiting for a reviewer, and the log's
 * health.
 */
const g = globalThis as unknown as { __prsGauges?: Registry };

/** The gauges read at scrape time, registered once into the process's registry. */
function withGauges(registry: Registry): Registry {
  if (g.__prsGauges === registry) return registry;
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
  fromDb("prs_outbox_tasks_pending", "Tasks for the service's own subscribers (the impersonation watches) not yet done; those that failed count too.", sql`select count(*)::int as v from outbox_tasks`);
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
  g.__prsGauges = registry;
  return registry;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The scrape answer for `Authorization: Bearer <METRICS_TOKEN>`: 404 when no token is configured, 401 for another. */
export async function metricsAnswer(authorization: string | null): Promise<Response> {
  const token = getEnv().METRICS_TOKEN;
  if (!token) throw new ApiError("not_found", "Metrics are not enabled on this server (METRICS_TOKEN).");
  const given = /^Bearer (.+)$/.exec(authorization ?? "")?.[1] ?? "";
  if (!same(given, token)) throw new ApiError("invalid_api_key", "Send the metrics token as a bearer token.");
  const registry = withGauges(metrics().registry);
  return new Response(await registry.metrics(), { headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" } });
}

