import { api, otherMethods, PUBLIC_CORS } from "@/lib/http/handler";
import { ApiError } from "@/lib/http/errors";
import { getDb } from "@/lib/db/client";
import { entryBundle, parseTilePath, TILE_HEIGHT, TILE_WIDTH } from "@/lib/tlog/tiles";
import { entryLeaves, latestCheckpoint, levelHashes } from "@/lib/tlog/store";

export const dynamic = "force-dynamic";

const notFound = () => new ApiError("not_found", "No such tile in the transparency log (yet).");

/**
 * Tiles of the log as of its latest checkpoint (C2SP tlog-tiles, height 8): a full tile once
 * the tree has all 256 of its hashes or entries, a partial one `.p/<W>` when it has at least W.
 * Both are immutable.
 */
export const GET = api(async (ctx) => {
  const parts = ctx.params.path;
  const ref = parseTilePath(Array.isArray(parts) ? parts : []);
  if (!ref) throw notFound();
  const db = await getDb();
  const size = (await latestCheckpoint(db))?.size ?? 0;
  const level = ref.kind === "hashes" ? ref.level * TILE_HEIGHT : 0;
  const available = Math.floor(size / 2 ** level) - ref.index * TILE_WIDTH;
  const width = ref.width ?? TILE_WIDTH;
  if (available < width) throw notFound();
  const first = ref.index * TILE_WIDTH;
  const body = ref.kind === "entries"
    ? entryBundle(await entryLeaves(db, first, width))
    : Buffer.from((await levelHashes(db, level, first, width)).join(""), "hex");
  return new Response(new Uint8Array(body), {
    headers: { "Content-Type": "application/octet-stream", "Cache-Control": "public, max-age=31536000, immutable", ...PUBLIC_CORS },
  });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
