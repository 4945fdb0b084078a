import { log, requestIdOf, runWithRequestId } from "@/lib/log/logger";
import { observeRequest } from "@/lib/log/metrics";
import { ApiError, errorBody } from "./errors";

export type RouteParams = Record<string, string | string[] | undefined>;
export type RouteContext = { params: Promise<RouteParams> };
export type ApiCtx = { req: Request; requestId: string; params: RouteParams };
export type ApiHandler<C extends ApiCtx = ApiCtx> = (ctx: C) => Promise<Response>;

export const PUBLIC_CORS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Expose-Headers": "Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After",
  "Access-Control-Max-Age": "600",
};

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonText(JSON.stringify(body), status, headers);
}

/** An answer that is already JSON text (signed status, stored idempotent answers): sent byte for byte. */
export function jsonText(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "Content-Type": "application/json; charset=utf-8", ...headers } });
}

/** A create's answer: the stored text, marked when it is a replay of an earlier request. */
export const idempotentAnswer = (r: { bodyJson: string; status: number; replayed: boolean }) =>
  jsonText(r.bodyJson, r.status, r.replayed ? { "Idempotent-Replayed": "true" } : {});

/**
 * The outer step every handler runs in: a request id on every answer (the one
 * scripts/serve.mjs logs the request under), optional public CORS, and the single place
 * where errors become the envelope. Unknown errors are logged and answered with a generic
 * 500 — their message never reaches the client.
 */
export function api(handler: ApiHandler, opts: { cors?: boolean } = {}) {
  return (req: Request, route?: RouteContext): Promise<Response> => {
    const requestId = requestIdOf(req);
    return runWithRequestId(requestId, async () => {
      const startedAt = performance.now();
      let res: Response;
      try {
        const params = route ? await route.params : {};
        res = await handler({ req, requestId, params });
      } catch (err) {
        if (err instanceof ApiError) {
          res = json(errorBody(err, requestId), err.status, err.headers);
        } else if (req.signal?.aborted) {
          // The client went away (while its body was read, or while it waited): nobody to answer and
          // nothing wrong here. 499 as nginx logs it, so metrics do not count it as a server error.
          log().info({ err: String(err) }, "client closed the request");
          res = new Response(null, { status: 499 });
        } else {
          log().error({ err }, "unhandled error");
          const e = new ApiError("internal_error", "An internal error occurred. It has been logged.");
          res = json(errorBody(e, requestId), 500);
        }
      }
      res.headers.set("Request-Id", requestId);
      if (opts.cors) for (const [k, v] of Object.entries(PUBLIC_CORS)) res.headers.set(k, v);
      observeRequest(req, res.status, startedAt);
      return res;
    });
  };
}

/** Preflight answer for public endpoints. */
export const corsPreflight = () =>
  new Response(null, { status: 204, headers: PUBLIC_CORS });

export function param(ctx: ApiCtx, name: string): string {
  const v = ctx.params[name];
  return typeof v === "string" ? v : "";
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Handlers for the methods a route does not serve, so they get the error envelope and a
 * Request-Id instead of Next's bare 405: `export const { PUT, PATCH, DELETE } = otherMethods("GET, POST")`.
 */
export function otherMethods(allowed: string) {
  const h = api(async (ctx) => {
    throw new ApiError("method_not_allowed", `${ctx.req.method} is not allowed here; use ${allowed}.`, undefined, undefined, { Allow: allowed });
  });
  return Object.fromEntries(METHODS.map((m) => [m, h])) as Record<(typeof METHODS)[number], typeof h>;
}
