import { corsPreflight, jsonText, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/http/with-api-key";
import { publicRecordNotFound } from "@/lib/records/get-record";
import { getSignedStatus } from "@/lib/records/signed-status";

/** Public and free: never metered. Shared caches may keep an answer until it would be re-signed. */
export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const signed = await getSignedStatus(ctx.db, id);
  if (!signed) throw publicRecordNotFound(id);
  return jsonText(signed.body, 200, { "Cache-Control": `public, max-age=${signed.maxAgeSeconds}, s-maxage=${signed.maxAgeSeconds}` });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
