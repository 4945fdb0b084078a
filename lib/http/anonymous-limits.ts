import { getEnv } from "@/lib/env";
import { requestIdOf } from "@/lib/log/logger";
import { ApiError, errorBody } from "./errors";
import { PUBLIC_CORS } from "./handler";
import { clientAddress, type SharedRateLimiter } from "./rate-limit";
import { sharedRateLimiter } from "./shared-rate-limiter";
import { rateLimitHeaders } from "./with-rate-limit";
import { anonymousClass, anonymousRequest, type AnonymousClass } from "./anonymous-class";

export { anonymousClass, type AnonymousClass };

const LIMIT_ENV: Record<AnonymousClass, "RECORD_READ_RATE_LIMIT_PER_MINUTE" | "DIRECTORY_RATE_LIMIT_PER_MINUTE" | "LOG_RATE_LIMIT_PER_MINUTE" | "PUBLIC_RATE_LIMIT_PER_MINUTE"> = {
  record: "RECORD_READ_RATE_LIMIT_PER_MINUTE",
  directory: "DIRECTORY_RATE_LIMIT_PER_MINUTE",
  log: "LOG_RATE_LIMIT_PER_MINUTE",
  public: "PUBLIC_RATE_LIMIT_PER_MINUTE",
};

// Next may load this module once per bundle (the proxy's and the routes'): one limiter per class per process.
const g = globalThis as unknown as { __prsAnonymousLimiters?: Map<AnonymousClass, SharedRateLimiter> };

export function anonymousLimiter(cls: AnonymousClass): SharedRateLimiter {
  const all = (g.__prsAnonymousLimiters ??= new Map());
  let l = all.get(cls);
  if (!l) {
    l = sharedRateLimiter({ limit: getEnv()[LIMIT_ENV[cls]], windowMs: 60_000 });
    all.set(cls, l);
  }
  return l;
}

/**
 * Count an anonymous request (proxy.ts, before Next routes it): null when it is not counted;
 * else the RateLimit-* headers for its answer and, once the allowance is spent, the 429
 * answer itself — the error envelope (`rate_limited`, with Retry-After) on API and data
 * paths, a short text on pages.
 */
export async function limitAnonymous(req: Request, pathname: string): Promise<{ headers: Record<string, string>; refused?: Response } | null> {
  const kind = anonymousRequest(req.method, pathname);
  if (!kind) return null;
  const { cls, page } = kind;
  const r = await anonymousLimiter(cls).hit(`anon-${cls}:${clientAddress(req.headers)}`);
  const headers = rateLimitHeaders(r);
  if (r.ok) return { headers };
  const message = `Too many requests from your address: the limit is ${r.limit} per minute for these pages and endpoints. Try again in ${r.retryAfterSeconds} s.`;
  const all = { ...headers, "Retry-After": String(r.retryAfterSeconds), "Cache-Control": "no-store" };
  if (page) {
    return { headers, refused: new Response(`${message}\n`, { status: 429, headers: { ...all, "Content-Type": "text/plain; charset=utf-8" } }) };
  }
  const requestId = requestIdOf(req);
  const body = errorBody(new ApiError("rate_limited", message), requestId);
  return {
    headers,
    refused: new Response(JSON.stringify(body), {
      status: 429,
      headers: { ...all, ...PUBLIC_CORS, "Content-Type": "application/json; charset=utf-8", "Request-Id": requestId },
    }),
  };
}
