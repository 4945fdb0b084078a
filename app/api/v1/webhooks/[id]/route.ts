import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { deleteWebhook } from "@/lib/webhooks/manage-webhooks";

export const DELETE = withApiKey("deleteWebhook", async (ctx) => json(await deleteWebhook(ctx.db, ctx.auth, param(ctx, "id"))));

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
