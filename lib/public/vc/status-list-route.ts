import { ApiError } from "@/lib/http/errors";
import { corsPreflight, otherMethods, param } from "@/lib/http/handler";
import { publicApi } from "@/lib/accounts/with-api-key";
import { getEnv } from "@/lib/env";
import type { KeyEnvironment } from "@/lib/signing/keys";
import { getStatusListCredential, STATUS_PURPOSES, type StatusPurpose } from "./status-list";

/**
 * The route of one issuer's status lists: the live ones (/api/v1/status-lists/{purpose}/{list})
 * and the sandbox ones (/sandbox/status-lists/{purpose}/{list}) answer alike.
 */
export function statusListRoute(environment: KeyEnvironment) {
  const prefix = environment === "sandbox" ? "/sandbox/status-lists" : "/api/v1/status-lists";
  const notFound = () => new ApiError("not_found", `No such status list: use ${prefix}/revocation|suspension/<list number> from a credential's credentialStatus.`);
  const GET = publicApi(async (ctx) => {
    const purpose = param(ctx, "purpose");
    const list = param(ctx, "list");
    if (!STATUS_PURPOSES.includes(purpose as StatusPurpose) || !/^(0|[1-9][0-9]{0,4})$/.test(list)) throw notFound();
    const body = await getStatusListCredential(ctx.db, purpose as StatusPurpose, Number(list), environment);
    if (!body) throw notFound();
    const maxAge = getEnv().STATUS_CACHE_SECONDS;
    return new Response(body, { status: 200, headers: { "Content-Type": "application/vc", "Cache-Control": `public, max-age=${maxAge}, s-maxage=${maxAge}` } });
  });
  return { ...otherMethods("GET"), GET, OPTIONS: corsPreflight };
}
