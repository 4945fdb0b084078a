import { timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { api } from "@/lib/http/handler";
import { metrics } from "@/lib/server/metrics";

/** Prometheus metrics (lib/server/metrics.ts), for a scraper holding METRICS_TOKEN; 404 when no token is configured. */
export const dynamic = "force-dynamic";

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const GET = api(async (ctx) => {
  const token = getEnv().METRICS_TOKEN;
  if (!token) throw new ApiError("not_found", "Metrics are not enabled on this server (METRICS_TOKEN).");
  const given = /^Bearer (.+)$/.exec(ctx.req.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!same(given, token)) throw new ApiError("invalid_api_key", "Send the metrics token as a bearer token.");
  const m = metrics();
  return new Response(await m.registry.metrics(), { headers: { "Content-Type": m.registry.contentType, "Cache-Control": "no-store" } });
});
