import { DOCUMENT_CSP } from "@/lib/http/security-headers";

/**
 * A stored document as the browser of its owner or a reviewer is sent it: shown inline in
 * the type its content was sniffed as (never re-sniffed by the browser), in a sandbox (no
 * script, no same-origin access, no forms), never cached by anyone else, framable only by
 * our own pages (the reviewer console shows it inline).
 */
export function fileResponse(f: { filename: string; contentType: string; data: Uint8Array; sha256: string }): Response {
  const ascii = f.filename.replace(/[^\x20-\x7E]/g, "_").replace(/["\\]/g, "_");
  return new Response(Buffer.from(f.data), {
    headers: {
      "Content-Type": f.contentType,
      "Content-Disposition": `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.filename)}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": DOCUMENT_CSP, // the same the proxy sets for these paths
      "Cache-Control": "private, no-store",
      "Cross-Origin-Resource-Policy": "same-origin",
      ETag: `"${f.sha256}"`,
    },
  });
}
