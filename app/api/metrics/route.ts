import { api } from "@/lib/http/handler";
import { metricsAnswer } from "@/lib/server/metrics";

/** Prometheus metrics (lib/server/metrics.ts), for a scraper holding METRICS_TOKEN; 404 when no token is configured. */
export const dynamic = "force-dynamic";

export const GET = api(async (ctx) => metricsAnswer(ctx.req.headers.get("authorization")));
