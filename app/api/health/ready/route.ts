import { api, json } from "@/lib/http/handler";
import { readiness } from "@/lib/server/readiness";

/** Readiness for a load balancer: database, migrations, signing key (lib/server/readiness.ts). */
export const dynamic = "force-dynamic";

export const GET = api(async () => {
  const r = await readiness();
  return json(r, r.status === "ok" ? 200 : 503, { "Cache-Control": "no-store" });
});
