import { revokeApiKeyForKey } from "@/lib/accounts/api-keys-api";
import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";

export const DELETE = withApiKey("revokeApiKey", async (ctx) => json(await revokeApiKeyForKey(ctx.db, ctx.auth, param(ctx, "id"))));

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
