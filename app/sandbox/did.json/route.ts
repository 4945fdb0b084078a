import { getDb } from "@/lib/db/client";
import { api, corsPreflight, json } from "@/lib/http/handler";
import { didDocument } from "@/lib/public/vc/did";

export const dynamic = "force-dynamic";

/**
 * did:web:<host>:sandbox resolves here (did:web: `:` → `/`, then `/did.json`): the issuer of
 * sandbox credentials, with only the published sandbox keys — none of the live issuer's.
 */
export const GET = api(async () => json(await didDocument(await getDb(), "sandbox"), 200, {
  "Content-Type": "application/did+json", "Cache-Control": "public, max-age=300",
}), { cors: true });
export const OPTIONS = corsPreflight;
