import { corsPreflight, json, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/accounts/with-api-key";
import { getPublicMandateKey, publicMandateKeyNotFound } from "@/lib/mandates/manage-mandate-keys";

/**
 * Public read-back of a mandate key (spec 2.9), /keys/{account_id}/{key_id}: the key of that
 * account, its standing and its owner named. Short cache: a revocation shows within a minute.
 */
export const GET = publicApi(async (ctx) => {
  const keyId = param(ctx, "key_id");
  const key = await getPublicMandateKey(ctx.db, param(ctx, "id"), keyId);
  if (!key) throw publicMandateKeyNotFound(keyId);
  return json(key, 200, { "Cache-Control": "public, max-age=60, s-maxage=60" });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
