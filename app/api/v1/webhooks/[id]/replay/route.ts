import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods, param } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { replayEvent, webhookReplaySchema } from "@/lib/webhooks/manage-webhooks";

export const POST = withApiKey("replayWebhookEvent", async (ctx) => {
  const input = parseOrThrow(webhookReplaySchema, await readJsonObject(ctx.req, 4 * KiB));
  return json(await replayEvent(ctx.db, ctx.auth, param(ctx, "id"), input), 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
