import { pingDb } from "@/lib/db/client";
import { api, json } from "@/lib/http/handler";

/** Readiness: the database answers. */
export const dynamic = "force-dynamic";

export const GET = api(async () => {
  try {
    await pingDb();
    return json({ status: "ok", database: "ok" });
  } catch {
    return json({ status: "unavailable", database: "unreachable" }, 503);
  }
});
