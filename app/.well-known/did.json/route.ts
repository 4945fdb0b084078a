import { getDb } from "@/lib/db/client";
import { api, corsPreflight, json } from "@/lib/http/handler";
import { didDocument } from "@/lib/public/vc/did";

export const dynamic = "force-dynamic";

/** The did:web document: every published signing key as a Multikey, read from the table like the JWKS. */
export const GET = api(async () => json(await didDocument(await getDb()), 200, {
  "Content-Type": "application/did+json", "Cache-Control": "public, max-age=300",
}), { cors: true });
export const OPTIONS = corsPreflight;
