import { getEnv } from "@/lib/env";
import type { SharedRateLimiter } from "@/lib/http/rate-limit";
import { sharedRateLimiter } from "@/lib/http/shared-rate-limiter";

// Next may load this module once per route bundle: one limiter per process.
const g = globalThis as unknown as { __prsLookupLimiter?: SharedRateLimiter };

/**
 * The public lookup's allowance: LOOKUP_RATE_LIMIT_PER_MINUTE (30) requests per minute per
 * client address, in this process on the embedded database and in PostgreSQL — shared by
 * every instance — with DATABASE_URL.
 */
export function lookupLimiter(): SharedRateLimiter {
  g.__prsLookupLimiter ??= sharedRateLimiter({ limit: getEnv().LOOKUP_RATE_LIMIT_PER_MINUTE, windowMs: 60_000 });
  return g.__prsLookupLimiter;
}
