import { scalarBundle } from "@/lib/docs/scalar-bundle";

/**
 * Scalar's standalone bundle, served by this app from node_modules (no CDN: many
 * deployments have no internet). Asked for as `?v=<installed version>` (lib/docs), the
 * answer is cached for a year: a new version is a new URL.
 */
export async function GET(req: Request) {
  const bundle = await scalarBundle();
  if (!bundle) return new Response("The API reference renderer is not installed.\n", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const current = new URL(req.url).searchParams.get("v") === bundle.version;
  return new Response(bundle.body, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
    },
  });
}
