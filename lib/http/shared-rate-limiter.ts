import { sql } from "drizzle-orm";
import { getDb, rowsOf, type Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { asShared, memoryRateLimiter, type SharedRateLimiter } from "./rate-limit";

type Opts = { limit: number; windowMs: number };

/**
 * The fixed-window counter in PostgreSQL (table rate_limits), so that every server process
 * on the database counts the same requests: one atomic upsert per hit, which starts a new
 * window when the stored one has ended and counts one more otherwise. Windows are timed by
 * the database's clock, the one clock every instance shares (`now` is not used).
 */
export function pgRateLimiter(opts: Opts, db: () => Promise<Db> = getDb): SharedRateLimiter {
  const secs = opts.windowMs / 1000;
  return {
    async hit(key) {
      // A counter need not outlive a crash: its commit does not wait for the WAL flush
      // (synchronous_commit off for this one statement's transaction), so the row lock that
      // serialises one client's hits is held for microseconds, not a disk flush.
      const rows = rowsOf<{ count: number; left_ms: number }>(await (await db()).execute(sql`
        insert into rate_limits as r (key, window_start, count)
        select ${key}, now(), 1 from (select set_config('synchronous_commit', 'off', true)) as relaxed
        on conflict (key) do update set
          window_start = case when r.window_start <= now() - make_interval(secs => ${secs}) then now() else r.window_start end,
          count = case when r.window_start <= now() - make_interval(secs => ${secs}) then 1 else r.count + 1 end
        returning r.count, (extract(epoch from r.window_start + make_interval(secs => ${secs}) - now()) * 1000)::float8 as left_ms`));
      const count = Number(rows[0]!.count);
      const retryAfterSeconds = Math.max(1, Math.ceil(Number(rows[0]!.left_ms) / 1000));
      return { ok: count <= opts.limit, limit: opts.limit, remaining: Math.max(0, opts.limit - count), retryAfterSeconds };
    },
  };
}

/** A limiter several instances share when they do (PostgreSQL with DATABASE_URL); in this process's memory on the embedded database. */
export function sharedRateLimiter(opts: Opts): SharedRateLimiter {
  return getEnv().DATABASE_URL ? pgRateLimiter(opts) : asShared(memoryRateLimiter(opts));
}

/** Forget windows that ended long ago (the sweep): counters of windows up to `maxWindowMs` long stay exact. */
export async function purgeRateLimits(db: Db, maxWindowMs = 3600_000) {
  await db.execute(sql`delete from rate_limits where window_start < now() - make_interval(secs => ${maxWindowMs / 1000})`);
}
