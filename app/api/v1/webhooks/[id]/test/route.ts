import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { sendTestEvent } from "@/lib/webhooks/manage-webhooks";

export const POST = withApiKey("testWebhook", async (ctx) => json(await sendTestEvent(ctx.db, ctx.auth, param(ctx, "id")), 202));

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
