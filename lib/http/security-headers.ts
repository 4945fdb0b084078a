import { randomBytes } from "node:crypto";
import baseline from "./baseline-headers.json";

/**
 * The security headers of every answer (docs/security.md, item 7). `proxy.ts` sets them on
 * everything Next routes; `scripts/serve.mjs` sets the constant part (baseline-headers.json)
 * on every answer first, so even one Next never routes carries them.
 */

/**
 * The one place for pages other sites may frame. Empty: nothing may be framed. (The embed
 * badge, `/embed.js`, is a script other sites load into a shadow root, not a page they
 * frame: it needs no entry.)
 */
export const FRAMEABLE: readonly { path: RegExp; ancestors: string }[] = [];

export const frameAncestors = (pathname: string) =>
  FRAMEABLE.find((f) => f.path.test(pathname))?.ancestors ?? "'none'";

/**
 * The one place for pages whose renderer writes inline styles it cannot put the nonce on:
 * /docs, where Scalar (the API reference) adds its theme and toast stylesheets without
 * one and sets style attributes through innerHTML (docs/security.md, "/docs"). They get
 * `style-src 'self' 'unsafe-inline'` (a nonce beside it would switch 'unsafe-inline' off);
 * their scripts stay under the nonce like every page's. Exact paths only: the guides under
 * /docs/guides are ordinary pages.
 */
export const INLINE_STYLE_PAGES: readonly RegExp[] = [/^\/docs\/?$/];

const styleSource = (pathname: string, nonce: string, dev: boolean) =>
  dev || INLINE_STYLE_PAGES.some((p) => p.test(pathname)) ? "'unsafe-inline'" : `'nonce-${nonce}'`;

/** 128 random bits, base64: unguessable, fresh for each request. */
export const newNonce = () => randomBytes(16).toString("base64");

type Options = { nonce: string; pathname: string; https: boolean; dev: boolean };

/**
 * Uploaded documents (PDF, PNG, JPEG) served to their owner and to reviewers
 * (lib/files/file-response.ts): shown in a sandbox (no script, no origin, no forms), loading
 * nothing, framable only by our own pages — the reviewer console shows them inline.
 */
export const DOCUMENT_PAGES: readonly RegExp[] = [
  /^\/review\/organisations\/[^/]+\/files\/[^/]+$/, /^\/organisation\/files\/[^/]+$/, /^\/review\/PRS-[^/]+\/files\/[^/]+$/,
];
export const DOCUMENT_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

/**
 * Scripts run only with this request's nonce (Next puts it on its own scripts) or when a
 * nonced script loads them ('strict-dynamic'); never inline without it. Styles: the
 * Tailwind stylesheet is a file ('self'), and Next's inline style tags carry the nonce
 * (INLINE_STYLE_PAGES excepted). `next dev` needs eval and inline styles for its overlay;
 * production never gets eval.
 */
export function contentSecurityPolicy({ nonce, pathname, https, dev }: Options): string {
  if (DOCUMENT_PAGES.some((p) => p.test(pathname))) return DOCUMENT_CSP;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${styleSource(pathname, nonce, dev)}`,
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors(pathname)}`,
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Every security header of one answer. HSTS only when the service is reached over https. */
export function securityHeaders(o: Options): Record<string, string> {
  return {
    ...baseline,
    "Content-Security-Policy": contentSecurityPolicy(o),
    ...(o.https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
