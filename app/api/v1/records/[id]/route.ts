import { json, param, otherMethods } from "@/lib/http/handler";
import { withApiKey } from "@/lib/accounts/with-api-key";
import { getRecordOrThrow } from "@/lib/record-model/get-record";
import { loadPublicView } from "@/lib/public/record/public-view";
import { serializeRecord } from "@/lib/public/record/serialize-record";

export const GET = withApiKey("getRecord", async (ctx) => {
  const row = await getRecordOrThrow(ctx.db, ctx.auth, param(ctx, "id"));
  return json(serializeRecord(await loadPublicView(ctx.db, row)));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
