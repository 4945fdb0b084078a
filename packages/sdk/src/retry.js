// When and how long to wait before trying a request again.
export const DEFAULT_RETRY = { maxAttempts: 3, maxElapsedMs: 30_000, baseDelayMs: 500, maxDelayMs: 8_000 };
/**
 * Retry-After as milliseconds from `now`: delay-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2026 07:28:00 GMT", RFC 9110 §10.2.3). null when absent or unreadable;
 * a date in the past is 0.
 */
export function parseRetryAfter(value, now = Date.now()) {
    if (value === null)
        return null;
    const v = value.trim();
    if (/^\d+$/.test(v))
        return Number(v) * 1000;
    if (!/[a-z]/i.test(v))
        return null; // not a date either ("-1", "1.5")
    const at = Date.parse(v);
    return Number.isNaN(at) ? null : Math.max(0, at - now);
}
/**
 * The wait before retry number `retry` (1 for the first retry): exponential, capped, with
 * "equal jitter" — half the step fixed, half random — so clients that failed together do
 * not all come back at once, yet every client waits at least half a step.
 */
export function backoffMs(retry, policy, random = Math.random) {
    const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
    return Math.round(step / 2 + random() * (step / 2));
}
/** Statuses worth trying again: rate limited, and the service's own faults. */
export const retryableStatus = (status) => status === 429 || status >= 500;
