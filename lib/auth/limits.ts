import { getEnv } from "@/lib/env";
import { memoryRateLimiter, type RateLimiter } from "@/lib/http/rate-limit";

// Next may load this module once per bundle (route handler, server actions): one set per process.
const g = globalThis as unknown as { __prsAuthLimits?: { signIn: RateLimiter; signUp: RateLimiter; signInEmail: RateLimiter } };

/** Sign-in and sign-up attempts: AUTH_RATE_LIMIT_PER_MINUTE (10) per client address; sign-in also per email. */
export function authLimits() {
  if (!g.__prsAuthLimits) {
    const limit = getEnv().AUTH_RATE_LIMIT_PER_MINUTE;
    g.__prsAuthLimits = {
      signIn: memoryRateLimiter({ limit, windowMs: 60_000 }),
      signUp: memoryRateLimiter({ limit, windowMs: 60_000 }),
      signInEmail: memoryRateLimiter({ limit, windowMs: 60_000 }),
    };
  }
  return g.__prsAuthLimits;
}
