import { corsPreflight, json, param, otherMethods } from "@/lib/http/handler";
import { publicApi } from "@/lib/accounts/with-api-key";
import { publicRecordNotFound } from "@/lib/record-model/get-record";
import { verifyRecordSignature } from "@/lib/public/record/verify-record-signature";

/**
 * Public: the stored signature re-checked. The payload, signature and key of an issued record
 * never change, so neither does `valid` (checked once per process, lib/public/record/verify-record-signature.ts);
 * shared caches may keep the answer a minute — not longer, nor `immutable`: this answer is how
 * anyone detects a record changed in the database behind the signature, and whether the record
 * is public can still change.
 */
export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const result = await verifyRecordSignature(ctx.db, id);
  if (!result) throw publicRecordNotFound(id);
  return json(result, 200, { "Cache-Control": "public, max-age=60, s-maxage=60" });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
