import { KiB, readJsonObject } from "@/lib/http/body";
import { idempotentAnswer, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { idempotencyKeyFrom } from "@/lib/idempotency/idempotency-key-from";
import { createBatch } from "@/lib/records/create-batch";

export const POST = withApiKey("createRecordBatch", async ({ req, auth, db }) => {
  const key = idempotencyKeyFrom(req);
  const body = await readJsonObject(req, 4 * KiB * KiB);
  const result = await createBatch(db, auth, body, key);
  return idempotentAnswer(result);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
