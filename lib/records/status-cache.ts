/**
 * Signed status answers, kept at most STATUS_CACHE_SECONDS (≤ 60 s) and dropped the
 * moment the record's status changes: locally right after the change commits, and in
 * other processes through the `prs_record_status` notification.
 */
type Entry = { body: string; asOfMs: number; untilMs: number };

const MAX_ENTRIES = 50_000;
const g = globalThis as unknown as { __prsStatusCache?: Map<string, Entry> };
const cache = (g.__prsStatusCache ??= new Map());

export function getCachedStatus(id: string, now = Date.now()): Entry | undefined {
  const e = cache.get(id);
  if (!e) return undefined;
  if (e.untilMs <= now) {
    cache.delete(id);
    return undefined;
  }
  return e;
}

export function putCachedStatus(id: string, e: Entry) {
  if (e.untilMs <= e.asOfMs) return;
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(id, e);
}

export function invalidateStatus(ids: string | string[]) {
  for (const id of Array.isArray(ids) ? ids : [ids]) cache.delete(id);
}

export const STATUS_CHANNEL = "prs_record_status";
