import { corsPreflight, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/accounts/with-api-key";
import { publicRecordNotFound } from "@/lib/record-model/get-record";
import { getRecordCredential } from "@/lib/public/vc/record-credential";

/** Public and free: the record as a W3C Verifiable Credential (eddsa-jcs-2022); its standing is in the status lists. */
export const GET = publicApi(async (ctx) => {
  const id = param(ctx, "id");
  const vc = await getRecordCredential(ctx.db, id);
  if (!vc) throw publicRecordNotFound(id);
  return new Response(vc, { status: 200, headers: { "Content-Type": "application/vc", "Cache-Control": "public, max-age=60" } });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
