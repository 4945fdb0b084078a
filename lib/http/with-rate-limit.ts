import { ApiError } from "./errors";
import type { ApiCtx, ApiHandler } from "./handler";
import { clientAddress, type RateLimitResult, type SharedRateLimiter } from "./rate-limit";

/** The RateLimit-* headers (IETF draft, as Unkey sends them): the allowance, what is left of it, seconds until it renews. */
export const rateLimitHeaders = (r: RateLimitResult): Record<string, string> => ({
  "RateLimit-Limit": String(r.limit),
  "RateLimit-Remaining": String(r.remaining),
  "RateLimit-Reset": String(r.retryAfterSeconds),
});

/**
 * A step of a handler: count the request against `limiter` under `<name>:<client address>`
 * before anything else (bad requests count too), answer 429 `rate_limited` with Retry-After
 * once the allowance is spent, and put the RateLimit-* headers on every answer, errors
 * included.
 */
export function withRateLimit<C extends ApiCtx>(name: string, limiter: () => SharedRateLimiter, handler: ApiHandler<C>): ApiHandler<C> {
  return async (ctx) => {
    const r = await limiter().hit(`${name}:${clientAddress(ctx.req.headers)}`);
    const headers = rateLimitHeaders(r);
    if (!r.ok) {
      throw new ApiError(
        "rate_limited",
        `Too many requests from your address: the limit is ${r.limit} per window. Try again in ${r.retryAfterSeconds} s.`,
        undefined, undefined, { ...headers, "Retry-After": String(r.retryAfterSeconds) },
      );
    }
    try {
      const res = await handler(ctx);
      for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
      return res;
    } catch (e) {
      throw e instanceof ApiError ? e.withHeaders(headers) : e;
    }
  };
}
