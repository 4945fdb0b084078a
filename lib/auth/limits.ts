import { getEnv } from "@/lib/env";
import { memoryRateLimiter, type RateLimiter } from "@/lib/http/rate-limit";

type AuthLimits = {
  signIn: RateLimiter;
  signUp: RateLimiter;
  signInEmail: RateLimiter;
  /** Requests for a mailed link (sign-in link, password reset), per client address… */
  mailLink: RateLimiter;
  /** …and per email address over 15 minutes, so nobody can flood one inbox from many addresses. */
  mailLinkEmail: RateLimiter;
};

// Next may load this module once per bundle (route handler, server actions): one set per process.
const g = globalThis as unknown as { __prsAuthLimits?: AuthLimits };

/**
 * AUTH_RATE_LIMIT_PER_MINUTE (10) per minute each: sign-in and sign-up attempts per client
 * address, sign-ins per email, link requests per client address. Link mails to one address:
 * the same number per 15 minutes.
 */
export function authLimits(): AuthLimits {
  if (!g.__prsAuthLimits) {
    const limit = getEnv().AUTH_RATE_LIMIT_PER_MINUTE;
    const perMinute = () => memoryRateLimiter({ limit, windowMs: 60_000 });
    g.__prsAuthLimits = {
      signIn: perMinute(), signUp: perMinute(), signInEmail: perMinute(), mailLink: perMinute(),
      mailLinkEmail: memoryRateLimiter({ limit, windowMs: 15 * 60_000 }),
    };
  }
  return g.__prsAuthLimits;
}
