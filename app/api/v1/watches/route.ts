import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { createWatch, listWatches, watchCreateSchema } from "@/lib/watches/manage-watches";

/** 201 with a new watch; 200 with the one the account already has for that value. */
export const POST = withApiKey("createWatch", async ({ req, auth, db }) => {
  const input = parseOrThrow(watchCreateSchema, await readJsonObject(req, 4 * KiB));
  const { watch, created } = await createWatch(db, auth.accountId, input);
  return json(watch, created ? 201 : 200);
});

export const GET = withApiKey("listWatches", async ({ auth, db }) => json(await listWatches(db, auth.accountId)));

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
