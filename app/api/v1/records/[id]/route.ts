import { json, param, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/http/with-api-key";
import { getHistory, getRecordOrThrow } from "@/lib/records/get-record";
import { serializeRecord } from "@/lib/records/serialize-record";

export const GET = withApiKey(async (ctx) => {
  const row = await getRecordOrThrow(ctx.db, ctx.auth, param(ctx, "id"));
  return json(serializeRecord(row, await getHistory(ctx.db, row.id)));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
