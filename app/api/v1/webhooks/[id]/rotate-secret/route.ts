import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods, param } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { rotateWebhookSecret, webhookRotateSchema } from "@/lib/webhooks/manage-webhooks";

export const POST = withApiKey("rotateWebhookSecret", async (ctx) => {
  const input = parseOrThrow(webhookRotateSchema, await readJsonObject(ctx.req, 4 * KiB));
  return json(await rotateWebhookSecret(ctx.db, ctx.auth, param(ctx, "id"), input));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
