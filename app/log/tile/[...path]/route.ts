import { api, otherMethods, PUBLIC_CORS } from "@/lib/http/handler";
import { ApiError } from "@/lib/http/errors";
import { getDb } from "@/lib/db/client";
import { parseTilePath } from "@/lib/tlog/tiles";
import { readTile } from "@/lib/tlog/store";

export const dynamic = "force-dynamic";

/** Tiles of the transparency log (C2SP tlog-tiles, height 8), immutable once served. */
export const GET = api(async (ctx) => {
  const parts = ctx.params.path;
  const ref = parseTilePath(Array.isArray(parts) ? parts : []);
  const body = ref && (await readTile(await getDb(), ref));
  if (!body) throw new ApiError("not_found", "No such tile in the transparency log (yet).");
  return new Response(new Uint8Array(body), {
    headers: { "Content-Type": "application/octet-stream", "Cache-Control": "public, max-age=31536000, immutable", ...PUBLIC_CORS },
  });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
