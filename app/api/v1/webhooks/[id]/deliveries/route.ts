import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { listDeliveries } from "@/lib/webhooks/manage-webhooks";

export const GET = withApiKey("listWebhookDeliveries", async (ctx) => json(await listDeliveries(ctx.db, ctx.auth, param(ctx, "id"))));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
