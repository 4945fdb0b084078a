import { ApiError } from "@/lib/http/errors";
import { corsPreflight, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/http/with-api-key";
import { getEnv } from "@/lib/env";
import { getStatusListCredential, STATUS_PURPOSES, type StatusPurpose } from "@/lib/vc/status-list";

const notFound = () => new ApiError("not_found", "No such status list: use /api/v1/status-lists/revocation|suspension/<list number> from a credential's credentialStatus.");

/** Public: a BitstringStatusListCredential, built from the records' statuses now. */
export const GET = publicApi(async (ctx) => {
  const purpose = param(ctx, "purpose");
  const list = param(ctx, "list");
  if (!STATUS_PURPOSES.includes(purpose as StatusPurpose) || !/^(0|[1-9][0-9]{0,4})$/.test(list)) throw notFound();
  const body = await getStatusListCredential(ctx.db, purpose as StatusPurpose, Number(list));
  if (!body) throw notFound();
  const maxAge = getEnv().STATUS_CACHE_SECONDS;
  return new Response(body, { status: 200, headers: { "Content-Type": "application/vc", "Cache-Control": `public, max-age=${maxAge}, s-maxage=${maxAge}` } });
});

export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
