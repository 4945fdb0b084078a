import { json, otherMethods, param } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { getEvent } from "@/lib/webhooks/events-api";

export const GET = withApiKey("getEvent", async (ctx) => json(await getEvent(ctx.db, ctx.auth, param(ctx, "id"))));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
