/**
 * Badge sightings counted in memory, per process: the status endpoint notes the host of each
 * cross-origin request (`noteBadgeOrigin`, one map update, no I/O) and the background loop
 * takes the counts and adds them to `badge_sightings` in batches (flush-sightings.ts). A
 * status read never becomes a database write.
 *
 * Bounded: at most MAX_PENDING (record, host) pairs wait between two flushes. Beyond that a
 * pair already waiting is still counted, a new one is dropped (and counted in `dropped`,
 * which the flush logs): a flood of made-up `Origin`s cannot grow the process's memory, and
 * a dropped pair is noted again on its next request after the flush.
 */

export const MAX_PENDING = 10_000;

export type Pending = { recordId: string; host: string; count: number; firstSeen: Date; lastSeen: Date };

const g = globalThis as unknown as { __prsSightings?: { pending: Map<string, Pending>; dropped: number } };
const state = () => (g.__prsSightings ??= { pending: new Map(), dropped: 0 });

/**
 * The host of a badge request's `Origin`, or null when there is nothing to note: no header,
 * `null` (sandboxed frames, file pages), anything that is not exactly a serialised http(s)
 * origin, or the service's own origin (its portal's preview). The host name only, without
 * the port or scheme: which site showed the badge, nothing about the page or the visitor.
 */
export function sightingHost(origin: string | null, ownOrigin: string): string | null {
  if (!origin || origin.length > 300) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin.toLowerCase() || url.origin === ownOrigin) return null;
  const host = url.hostname.replace(/\.$/, "");
  return host === "" || host.length > 253 ? null : host;
}

/** Count one badge request for `recordId` from `host` (already checked by sightingHost). */
export function noteSighting(recordId: string, host: string, now = new Date()): void {
  const s = state();
  const key = `${recordId} ${host}`;
  const p = s.pending.get(key);
  if (p) {
    p.count += 1;
    p.lastSeen = now;
  } else if (s.pending.size < MAX_PENDING) {
    s.pending.set(key, { recordId, host, count: 1, firstSeen: now, lastSeen: now });
  } else {
    s.dropped += 1;
  }
}

/** Everything counted since the last take, and how many new pairs were dropped at the cap; the counter starts empty again. */
export function takeSightings(): { pending: Pending[]; dropped: number } {
  const s = state();
  const out = { pending: [...s.pending.values()], dropped: s.dropped };
  s.pending = new Map();
  s.dropped = 0;
  return out;
}

/** Put back counts a flush could not write (they are added to whatever was counted meanwhile, within the cap). */
export function restoreSightings(items: readonly Pending[]): void {
  const s = state();
  for (const it of items) {
    const key = `${it.recordId} ${it.host}`;
    const p = s.pending.get(key);
    if (p) {
      p.count += it.count;
      if (it.firstSeen < p.firstSeen) p.firstSeen = it.firstSeen;
    } else if (s.pending.size < MAX_PENDING) {
      s.pending.set(key, { ...it });
    } else {
      s.dropped += 1;
    }
  }
}

let own: { base: string; origin: string } | null = null;

/** Note a public status request's `Origin` for `recordId` (the status endpoint calls this for each answer it finds). */
export function noteBadgeRequest(recordId: string, origin: string | null, publicBaseUrl: string): void {
  if (!origin) return;
  if (own?.base !== publicBaseUrl) own = { base: publicBaseUrl, origin: new URL(publicBaseUrl).origin };
  const host = sightingHost(origin, own.origin);
  if (host) noteSighting(recordId, host);
}

/** Whether this process counted `recordId`'s badge on `host` since its last flush. */
export function pendingSighting(recordId: string, host: string): boolean {
  return state().pending.has(`${recordId} ${host}`);
}
