/**
 * The classes of anonymous requests, each with its own allowance per client address (an IPv6
 * client is its /64) per minute, shared by every instance on PostgreSQL (docs/decisions.md
 * "Issue 29: anonymous endpoints", docs/operations.md):
 * - `record`: one record's public answers — status (and `?at=`), signature check, VC,
 *   transparency-log entries, certificate page, QR images, embed badge — and the status lists.
 *   Embedded on busy pages: RECORD_READ_RATE_LIMIT_PER_MINUTE (1200).
 * - `directory`: the directory and its search. DIRECTORY_RATE_LIMIT_PER_MINUTE (60).
 * - `log`: the transparency log's checkpoint, key and tiles (monitors read many tiles).
 *   LOG_RATE_LIMIT_PER_MINUTE (1200).
 * - `public`: everything else answered without a key or session — OpenAPI, published keys and
 *   DID documents, JSON-LD context, guides and other pages. PUBLIC_RATE_LIMIT_PER_MINUTE (600).
 * Not counted here: lookup and /check (their own limit, LOOKUP_RATE_LIMIT_PER_MINUTE), sign-in
 * (AUTH_RATE_LIMIT_PER_MINUTE), endpoints that take an API key or token (metered per account),
 * health probes, Next's own assets, and methods other than GET and HEAD.
 */
export type AnonymousClass = "record" | "directory" | "log" | "public";

const RECORD_API = /^\/api\/v1\/records\/[^/]+\/(status|signature|vc|log)\/?$/;
const STATUS_LISTS = /^\/(api\/v1|sandbox)\/status-lists\//;
/** Public documents answered as data, not pages: published keys, DID documents, JSON-LD contexts, scripts, images. */
const DATA_DOCUMENT = /\.(js|json|png|svg)$|^\/(keys|ns|sandbox|\.well-known)\//;

/** Which allowance a request counts against; null: not counted by this limit. */
export function anonymousClass(method: string, pathname: string): AnonymousClass | null {
  return anonymousRequest(method, pathname)?.cls ?? null;
}

/**
 * The class of an anonymous request and whether its answer is a page (a refusal is short
 * text) or data (a refusal is the JSON error envelope); null: not counted by this limit.
 */
export function anonymousRequest(method: string, pathname: string): { cls: AnonymousClass; page: boolean } | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const p = pathname;
  if (p.startsWith("/_next/") || p === "/favicon.ico" || /^\/icon-\d+\.png$/.test(p)) return null;
  if (RECORD_API.test(p) || STATUS_LISTS.test(p) || p.startsWith("/embed/") || p === "/embed.js") return { cls: "record", page: false };
  if (/^\/r\/[^/]+\/qr\/?$/.test(p)) return { cls: "record", page: false };
  if (/^\/r\/[^/]+\/?$/.test(p)) return { cls: "record", page: true };
  if (p === "/directory" || p.startsWith("/directory/")) return { cls: "directory", page: true };
  if (p.startsWith("/log/")) return { cls: "log", page: false };
  if (p.startsWith("/api/")) {
    return p === "/api/v1/openapi.json" || p === "/api/v1/webhooks/public-keys" ? { cls: "public", page: false } : null;
  }
  return { cls: "public", page: !DATA_DOCUMENT.test(p) };
}
