import { getEnv } from "@/lib/env";
import type { SharedRateLimiter } from "@/lib/http/rate-limit";
import { sharedRateLimiter } from "@/lib/http/shared-rate-limiter";

type AuthLimits = {
  signIn: SharedRateLimiter;
  signUp: SharedRateLimiter;
  signInEmail: SharedRateLimiter;
  /** Requests for a mailed link (sign-in link, password reset), per client address… */
  mailLink: SharedRateLimiter;
  /** …and per email address over 15 minutes, so nobody can flood one inbox from many addresses. */
  mailLinkEmail: SharedRateLimiter;
};

// Next may load this module once per bundle (route handler, server actions): one set per process.
const g = globalThis as unknown as { __prsAuthLimits?: AuthLimits };

/** One limiter under its own name: with DATABASE_URL its counters are rows `<name>:<key>` every instance shares. */
const named = (name: string, opts: { limit: number; windowMs: number }): SharedRateLimiter => {
  const limiter = sharedRateLimiter(opts);
  return { hit: (key, now) => limiter.hit(`${name}:${key}`, now) };
};

/**
 * AUTH_RATE_LIMIT_PER_MINUTE (10) per minute each: sign-in and sign-up attempts per client
 * address (an IPv6 client is its /64), password sign-ins per email and client address (never
 * per email alone, which anyone could spend to lock the owner out), link requests per client
 * address. Link mails to one address:
 * the same number per 15 minutes. Shared by every instance on PostgreSQL (rate_limits), in
 * this process's memory on the embedded database.
 */
export function authLimits(): AuthLimits {
  if (!g.__prsAuthLimits) {
    const limit = getEnv().AUTH_RATE_LIMIT_PER_MINUTE;
    const perMinute = (name: string) => named(name, { limit, windowMs: 60_000 });
    g.__prsAuthLimits = {
      signIn: perMinute("signin"), signUp: perMinute("signup"), signInEmail: perMinute("signin-email"), mailLink: perMinute("mail-link"),
      mailLinkEmail: named("mail-link-email", { limit, windowMs: 15 * 60_000 }),
    };
  }
  return g.__prsAuthLimits;
}
