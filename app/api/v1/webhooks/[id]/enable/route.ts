import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { enableWebhook } from "@/lib/webhooks/manage-webhooks";

export const POST = withApiKey("enableWebhook", async (ctx) => json(await enableWebhook(ctx.db, ctx.auth, param(ctx, "id"))));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
