import { getDb } from "@/lib/db/client";
import { api, corsPreflight, json, otherMethods } from "@/lib/http/handler";
import { webhookPublicKeys } from "@/lib/webhooks/webhook-public-keys";

export const dynamic = "force-dynamic";

/** Public, like the JWKS it mirrors, and read from the same table on every request. */
export const GET = api(async () => json(await webhookPublicKeys(await getDb()), 200, { "Cache-Control": "public, max-age=300" }), { cors: true });
export const OPTIONS = corsPreflight;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
