import { api, otherMethods, PUBLIC_CORS } from "@/lib/http/handler";
import { ApiError } from "@/lib/http/errors";
import { getDb } from "@/lib/db/client";
import { witnesses } from "@/lib/tlog/published";
import { publishedCheckpoint } from "@/lib/tlog/store";

export const dynamic = "force-dynamic";

/** The published checkpoint of the transparency log: a C2SP signed note, with witnesses' cosignatures when configured (docs/verify.md). */
export const GET = api(async () => {
  const c = await publishedCheckpoint(await getDb());
  if (!c) {
    throw new ApiError("not_found", witnesses().length > 0
      ? "The transparency log has no checkpoint cosigned by its witnesses' quorum yet; try again in a few seconds."
      : "The transparency log has no checkpoint yet; try again in a few seconds.");
  }
  return new Response(c.note, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache", ...PUBLIC_CORS } });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
