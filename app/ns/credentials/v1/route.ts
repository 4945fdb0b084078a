import { api, corsPreflight } from "@/lib/http/handler";
import { prsContext } from "@/lib/public/vc/context";

export const dynamic = "force-dynamic";

/** The JSON-LD context of ProofRecordCredential (lib/public/vc/context.ts): fixed for a deployment. */
export const GET = api(async () => new Response(JSON.stringify(prsContext()), {
  status: 200, headers: { "Content-Type": "application/ld+json", "Cache-Control": "public, max-age=86400" },
}), { cors: true });
export const OPTIONS = corsPreflight;
