import { KiB, readJsonObject } from "@/lib/http/body";
import { json, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { createMandateKey, listMandateKeys, parseMandateKeyCreate } from "@/lib/mandates/manage-mandate-keys";

/** The principal is the API key's account (and the key's environment), never the body. */
export const POST = withApiKey("createMandateKey", async ({ req, auth, db }) => {
  const input = parseMandateKeyCreate(await readJsonObject(req, 16 * KiB));
  return json(await createMandateKey(db, auth, input), 201);
});

export const GET = withApiKey("listMandateKeys", async ({ auth, db }) => json(await listMandateKeys(db, auth)));

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
