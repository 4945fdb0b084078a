import { KiB, readJsonObject } from "@/lib/http/body";
import { idempotentAnswer, json, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { idempotencyKeyFrom } from "@/lib/idempotency/idempotency-key-from";
import { createRecord } from "@/lib/records/create-record";
import { listRecords } from "@/lib/records/list-records";
import { listRecordsQuerySchema } from "@/lib/record-model/schemas";

export const POST = withApiKey("createRecord", async ({ req, auth, db }) => {
  const key = idempotencyKeyFrom(req);
  const body = await readJsonObject(req, 256 * KiB);
  const result = await createRecord(db, auth, body, key);
  return idempotentAnswer(result);
});

export const GET = withApiKey("listRecords", async ({ req, auth, db }) => {
  const query = Object.fromEntries(new URL(req.url).searchParams);
  return json(await listRecords(db, auth, parseOrThrow(listRecordsQuerySchema, query)));
});

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
