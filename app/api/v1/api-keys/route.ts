import { apiKeyCreateSchema, createApiKeyForKey, listApiKeysForKey } from "@/lib/accounts/api-keys-api";
import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";

export const POST = withApiKey("createApiKey", async ({ req, auth, db }) => {
  const input = parseOrThrow(apiKeyCreateSchema, await readJsonObject(req, 4 * KiB));
  return json(await createApiKeyForKey(db, auth, input), 201);
});

export const GET = withApiKey("listApiKeys", async ({ auth, db }) => json(await listApiKeysForKey(db, auth)));

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
