import { getDb } from "@/lib/db/client";
import { api, corsPreflight, json } from "@/lib/http/handler";
import { publishedJwks } from "@/lib/signing/published-keys";

export const dynamic = "force-dynamic";

/** Read from the table on every request: a key another instance just added is already here. */
export const GET = api(async () => json(await publishedJwks(await getDb()), 200, { "Cache-Control": "public, max-age=300" }), { cors: true });
export const OPTIONS = corsPreflight;
