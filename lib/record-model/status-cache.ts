/**
 * Signed status answers, kept at most STATUS_CACHE_SECONDS (≤ 60 s) and dropped the
 * moment the record's status changes — or that of a record it rests on (its links): locally
 * right after the change commits, and in other processes through the `prs_record_status`
 * notification. Each process keeps its own index of who depends on whom, from the views
 * it cached, so a notification names only the record that changed.
 */
type Entry = { body: string; asOfMs: number; untilMs: number; dependsOn?: readonly string[] };

const MAX_ENTRIES = 50_000;
type Profile = import("@/lib/accounts/account-profile").AccountProfile;
type State = { entries: Map<string, Entry>; dependents: Map<string, Set<string>>; profiles: Map<string, { profile: Profile; untilMs: number }> };
const g = globalThis as unknown as { __prsStatusCache?: State; __prsStatusEpoch?: number };
const state = (g.__prsStatusCache ??= { entries: new Map(), dependents: new Map(), profiles: new Map() });
const ACCOUNT = "account:";

/**
 * Account profiles (who is speaking) are kept like the views that show them: at most
 * `ttlMs`, and dropped with the `account:<id>` key (a name change, a domain record moving).
 */
export function getCachedProfile(accountId: string, now = Date.now()): Profile | undefined {
  const e = state.profiles.get(accountId);
  if (e && e.untilMs > now) return e.profile;
  if (e) state.profiles.delete(accountId);
  return undefined;
}

export function putCachedProfile(accountId: string, profile: Profile, ttlMs: number, now = Date.now()) {
  if (state.profiles.size >= MAX_ENTRIES) state.profiles.delete(state.profiles.keys().next().value!);
  state.profiles.set(accountId, { profile, untilMs: now + ttlMs });
}

export function getCachedStatus(id: string, now = Date.now()): Entry | undefined {
  const e = state.entries.get(id);
  if (!e) return undefined;
  if (e.untilMs <= now) {
    drop(id);
    return undefined;
  }
  return e;
}

export function putCachedStatus(id: string, e: Entry) {
  if (e.untilMs <= e.asOfMs) return;
  drop(id);
  if (state.entries.size >= MAX_ENTRIES) drop(state.entries.keys().next().value!);
  state.entries.set(id, e);
  for (const target of e.dependsOn ?? []) {
    (state.dependents.get(target) ?? state.dependents.set(target, new Set()).get(target)!).add(id);
  }
}

function drop(id: string) {
  const e = state.entries.get(id);
  if (!e) return;
  state.entries.delete(id);
  for (const target of e.dependsOn ?? []) {
    const set = state.dependents.get(target);
    set?.delete(id);
    if (set?.size === 0) state.dependents.delete(target);
  }
}

/**
 * Moves on with every invalidation: answers built from many records' statuses at once (the
 * credential status lists, lib/public/vc/status-list.ts) are kept only while it stands still.
 */
export const statusEpoch = () => g.__prsStatusEpoch ?? 0;

/** Drop the cached status of these records and of every record that rests on them, transitively. */
export function invalidateStatus(ids: string | readonly string[]) {
  g.__prsStatusEpoch = statusEpoch() + 1;
  const todo = [...(typeof ids === "string" ? [ids] : ids)];
  const seen = new Set<string>();
  while (todo.length) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    drop(id);
    if (id.startsWith(ACCOUNT)) state.profiles.delete(id.slice(ACCOUNT.length));
    for (const dep of state.dependents.get(id) ?? []) todo.push(dep);
  }
}

export const STATUS_CHANNEL = "prs_record_status";
