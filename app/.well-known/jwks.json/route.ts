import { api, corsPreflight, json } from "@/lib/http/handler";
import { publicJwks } from "@/lib/signing/keys";

export const dynamic = "force-dynamic";

export const GET = api(async () => json(publicJwks(), 200, { "Cache-Control": "public, max-age=300" }), { cors: true });
export const OPTIONS = corsPreflight;
