import { corsPreflight, jsonText, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/accounts/with-api-key";
import { noteBadgeRequest } from "@/lib/public/embed/sightings/sighting-counter";
import { getEnv } from "@/lib/env";
import { publicRecordNotFound } from "@/lib/record-model/get-record";
import { getSignedStatus, getSignedStatusAt } from "@/lib/public/record/signed-status";
import { publicRecordNotFoundAt, statusInstantFrom } from "@/lib/public/record/status-at";

/**
 * Public and free: never metered. Shared caches may keep an answer until it would be re-signed.
 * `?at=<RFC 3339>`: the signed status the record had at that past instant.
 * A current answer requested from another site (`Origin`, as the embed badge's fetch sends it)
 * is counted in memory as a badge sighting of that host (lib/public/embed/sightings, docs/embed.md).
 */
export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const at = statusInstantFrom(new URL(ctx.req.url).searchParams);
  const signed = at ? await getSignedStatusAt(ctx.db, id, at) : await getSignedStatus(ctx.db, id);
  if (!signed) throw at ? publicRecordNotFoundAt(id, at) : publicRecordNotFound(id);
  if (!at) noteBadgeRequest(id, ctx.req.headers.get("origin"), getEnv().publicBaseUrl);
  return jsonText(signed.body, 200, { "Cache-Control": `public, max-age=${signed.maxAgeSeconds}, s-maxage=${signed.maxAgeSeconds}` });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
