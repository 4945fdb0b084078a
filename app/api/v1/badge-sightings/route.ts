import { listBadgeSightings, listBadgeSightingsQuerySchema } from "@/lib/public/embed/sightings/list-sightings";
import { json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";

export const GET = withApiKey("listBadgeSightings", async ({ req, auth, db }) => {
  const query = Object.fromEntries(new URL(req.url).searchParams);
  return json(await listBadgeSightings(db, auth, parseOrThrow(listBadgeSightingsQuerySchema, query)));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
