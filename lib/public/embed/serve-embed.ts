import { ApiError } from "@/lib/http/errors";
import { embedScript, versionedEmbedPath } from "./embed-script";

const SHARED = {
  "Content-Type": "text/javascript; charset=utf-8",
  // Any page may load it, also with crossorigin="anonymous" (needed for an integrity check).
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
};

/**
 * The answer to GET /embed.js (`file` null) or /embed/<file>: the script with its caching, a
 * 304 when the page's copy is current, a redirect for a version this build does not have.
 */
export function embedAnswer(req: Request, file: string | null): Response {
  const script = embedScript();
  if (!script) throw new ApiError("service_unavailable", "The embed script is not built on this server (scripts/build-embed.mjs).");
  const etag = `"${script.version}"`;
  const versioned = file !== null;
  if (versioned && file !== `${script.version}.js`) {
    return new Response(null, { status: 302, headers: { Location: "/embed.js", "Cache-Control": "public, max-age=300", ...SHARED } });
  }
  const headers = {
    ...SHARED,
    ETag: etag,
    "Cache-Control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=300, stale-while-revalidate=3600",
    ...(versioned ? {} : { Link: `<${versionedEmbedPath(script.version)}>; rel="canonical"` }),
  };
  if ((req.headers.get("if-none-match") ?? "").split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(script.code), { status: 200, headers: { ...headers, "Content-Length": String(script.code.length) } });
}
