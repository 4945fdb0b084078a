import { authenticateApiKey } from "@/lib/accounts/authenticate-api-key";
import { requireScope } from "@/lib/accounts/scopes";
import { corsPreflight, json, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/accounts/with-api-key";
import { getMandateKeyById, getOwnMandateKey, publicMandateKeyNotFound } from "@/lib/mandates/manage-mandate-keys";

/**
 * The spec's public read-back, /keys/{key_id}. Key ids are unique per account only (issue 29):
 * with an API key it answers the caller's own key (never cached by a shared cache); without
 * one, the key with its owner named when exactly one account holds the id, 409
 * `mandate_key_ambiguous` naming /keys/{account_id}/{key_id} when several do.
 */
export const GET = publicApi(async (ctx) => {
  const keyId = param(ctx, "id");
  const authorization = ctx.req.headers.get("authorization");
  if (authorization === null) {
    const key = await getMandateKeyById(ctx.db, keyId);
    if (!key) throw publicMandateKeyNotFound(keyId);
    // Short: another account may register the same id, and a revocation shows within a minute.
    return json(key, 200, { "Cache-Control": "public, max-age=60, s-maxage=60", Vary: "Authorization" });
  }
  const auth = await authenticateApiKey(ctx.db, authorization);
  requireScope(auth.scopes, "getOwnMandateKey");
  const key = await getOwnMandateKey(ctx.db, auth, keyId);
  if (!key) throw publicMandateKeyNotFound(keyId);
  return json(key, 200, { "Cache-Control": "private, no-store", Vary: "Authorization" });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
