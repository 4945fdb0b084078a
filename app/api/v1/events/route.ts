import { json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { listEvents, listEventsQuerySchema } from "@/lib/webhooks/events-api";

export const GET = withApiKey("listEvents", async ({ req, auth, db }) => {
  const query = Object.fromEntries(new URL(req.url).searchParams);
  return json(await listEvents(db, auth, parseOrThrow(listEventsQuerySchema, query)));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
