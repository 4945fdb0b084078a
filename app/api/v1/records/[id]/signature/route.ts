import { corsPreflight, json, param, otherMethods } from "@/lib/http/handler";
import { publicApi } from "@/lib/http/with-api-key";
import { publicRecordNotFound } from "@/lib/records/get-record";
import { verifyRecordSignature } from "@/lib/records/verify-record-signature";

export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const result = await verifyRecordSignature(ctx.db, id);
  if (!result) throw publicRecordNotFound(id);
  return json(result, 200, { "Cache-Control": "no-store" });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
