import { KiB, readJsonObject } from "@/lib/http/body";
import { json, param, otherMethods } from "@/lib/http/handler";
import { parseOrThrow } from "@/lib/http/validation";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { changeLifecycle } from "@/lib/records/change-lifecycle";
import { lifecycleSchema } from "@/lib/record-model/schemas";

export const POST = withApiKey("changeRecordLifecycle", async (ctx) => {
  const input = parseOrThrow(lifecycleSchema, await readJsonObject(ctx.req, 16 * KiB));
  return json(await changeLifecycle(ctx.db, ctx.auth, param(ctx, "id"), input));
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
