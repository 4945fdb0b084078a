import ipaddr from "ipaddr.js";

/**
 * A fixed-window counter per key. In memory, per process: enough for one server; a shared
 * store (PostgreSQL, Redis) implements the same counter as a SharedRateLimiter when there
 * are several (lib/http/shared-rate-limiter.ts).
 */
export interface RateLimiter {
  /** Count one attempt for `key`; `ok: false` once the window's allowance is spent. */
  hit(key: string, now?: number): RateLimitResult;
}

/** The same counter answered by a store: asynchronous. A memory limiter serves as one through `asShared`. */
export interface SharedRateLimiter {
  hit(key: string, now?: number): Promise<RateLimitResult>;
}

/** `retryAfterSeconds`: until the current window ends (at least 1), whether or not the allowance is spent. */
export type RateLimitResult = { ok: boolean; limit: number; remaining: number; retryAfterSeconds: number };

export const asShared = (limiter: RateLimiter): SharedRateLimiter => ({ hit: async (key, now) => limiter.hit(key, now) });

export function memoryRateLimiter(opts: { limit: number; windowMs: number; maxKeys?: number }): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const maxKeys = opts.maxKeys ?? 50_000;
  return {
    hit(key, now = Date.now()) {
      let w = windows.get(key);
      if (!w || now - w.start >= opts.windowMs) {
        if (windows.size >= maxKeys) {
          for (const [k, v] of windows) if (now - v.start >= opts.windowMs) windows.delete(k);
          // Still full: drop the oldest entries (Map keeps insertion order).
          for (const k of windows.keys()) {
            if (windows.size < maxKeys) break;
            windows.delete(k);
          }
        }
        w = { start: now, count: 0 };
        windows.delete(key);
        windows.set(key, w);
      }
      w.count += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + opts.windowMs - now) / 1000));
      return { ok: w.count <= opts.limit, limit: opts.limit, remaining: Math.max(0, opts.limit - w.count), retryAfterSeconds };
    },
  };
}

/**
 * The client as rate limits count it: the last `X-Forwarded-For` entry, else `X-Real-IP`.
 * The server (scripts/serve.mjs) overwrites X-Forwarded-For with the socket address unless
 * TRUST_PROXY=1, when the proxy in front must set or append it. An IPv6 client is its /64 —
 * one subscriber's network holds 2^64 addresses, so a whole address would let one client
 * count as endless clients — and an IPv4-mapped IPv6 address is its IPv4 address.
 */
export function clientAddress(headers: { get(name: string): string | null } | Record<string, string | string[] | undefined>): string {
  const get = (n: string): string | undefined => {
    if (typeof (headers as Headers).get === "function") return (headers as Headers).get(n) ?? undefined;
    const v = (headers as Record<string, string | string[] | undefined>)[n];
    return Array.isArray(v) ? v.join(",") : v;
  };
  const xff = get("x-forwarded-for")?.split(",").map((s) => s.trim()).filter(Boolean);
  return clientNetwork(xff?.at(-1) ?? get("x-real-ip")?.trim() ?? "unknown");
}

/** An address as a rate-limit key: IPv4 as is, IPv6 as its /64 (`2001:db8:1:2::/64`); anything else unchanged. */
export function clientNetwork(address: string): string {
  const bare = address.replace(/^\[|\](:\d+)?$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return address;
  const ip = ipaddr.process(bare); // an IPv4-mapped IPv6 address becomes IPv4
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
