import { authenticateApiKey } from "@/lib/accounts/authenticate-api-key";
import { corsPreflight, json, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/http/with-api-key";
import { getOwnMandateKey, mandateKeyAccountRequired, publicMandateKeyNotFound } from "@/lib/mandates/manage-mandate-keys";

/**
 * The old read-back address, /keys/{key_id}. Key ids are unique per account only (issue 29),
 * so a key id alone names no key: with an API key it answers the caller's own key; without
 * one, 404 pointing at /keys/{account_id}/{key_id}. Never cached by a shared cache.
 */
export const GET = publicApi(async (ctx) => {
  const keyId = param(ctx, "id");
  const authorization = ctx.req.headers.get("authorization");
  if (authorization === null) throw mandateKeyAccountRequired(keyId);
  const auth = await authenticateApiKey(ctx.db, authorization);
  const key = await getOwnMandateKey(ctx.db, auth, keyId);
  if (!key) throw publicMandateKeyNotFound(keyId);
  return json(key, 200, { "Cache-Control": "private, no-store", Vary: "Authorization" });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
