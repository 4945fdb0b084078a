import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { createWebhook, listWebhooks, webhookCreateSchema } from "@/lib/webhooks/manage-webhooks";

export const POST = withApiKey("createWebhook", async ({ req, auth, db }) => {
  const input = parseOrThrow(webhookCreateSchema, await readJsonObject(req, 16 * KiB));
  return json(await createWebhook(db, auth, input), 201);
});

export const GET = withApiKey("listWebhooks", async ({ auth, db }) => json(await listWebhooks(db, auth)));

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
