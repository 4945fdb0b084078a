import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "@/drizzle/schema";
import { getEnv } from "@/lib/env";

export type Schema = typeof schema;
/** One data layer, two drivers: both drizzle flavours share this interface. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

type Handle = {
  db: Db;
  mode: "pglite" | "postgres";
  close: () => Promise<void>;
  /** LISTEN on a channel (pg_notify); used to drop cached answers across processes. */
  listen: (channel: string, fn: (payload: string) => void) => Promise<void>;
  /**
   * Run one statement on the driver directly, for the hottest write. Through drizzle, PGlite
   * copies its whole parser table on every query (drizzle passes its own parsers).
   */
  rawQuery: (q: SQL) => Promise<Record<string, unknown>[]>;
};

const dialect = new PgDialect();

/** Rows of a `db.execute` result: postgres-js returns an array, PGlite `{ rows }`. */
export const rowsOf = <T = Record<string, unknown>>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

// Next can load a module more than once (route bundles, instrumentation); PGlite allows
// one instance per data folder, so the handle lives on globalThis.
const g = globalThis as unknown as { __prsDb?: Promise<Handle> };

function migrationsFolder(): string {
  const candidates = [path.join(process.cwd(), "drizzle", "migrations")];
  const found = candidates.find((p) => fs.existsSync(path.join(p, "meta", "_journal.json")));
  if (!found) throw new Error(`drizzle migrations not found (looked in ${candidates.join(", ")})`);
  return found;
}

async function open(): Promise<Handle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    // Several processes may start at once: one migrates, the others wait on the lock. A
    // one-connection client keeps the session-level advisory lock on the migrating session.
    const migrator = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      await migrator`select pg_advisory_lock(727001)`;
      await migrate(drizzle({ client: migrator, schema }), { migrationsFolder: migrationsFolder() });
      await migrator`select pg_advisory_unlock(727001)`;
    } finally {
      await migrator.end({ timeout: 5 });
    }
    const client = postgres(env.DATABASE_URL, { max: env.DB_POOL_SIZE, onnotice: () => {} });
    const db = drizzle({ client, schema });
    return {
      db: db as unknown as Db, mode: "postgres", close: () => client.end({ timeout: 5 }),
      listen: async (channel, fn) => void (await client.listen(channel, (p) => fn(p))),
      rawQuery: async (q) => {
        const { sql: text, params } = dialect.sqlToQuery(q);
        return (await client.unsafe(text, params as never[])) as unknown as Record<string, unknown>[];
      },
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = path.join(env.dataDir, "pglite");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // relaxedDurability only stops PGlite awaiting its post-query syncToFs, which is a no-op on
  // NodeFS (writes go straight to the data folder); it saves a mutex round trip per query.
  const client = await PGlite.create(dir, { relaxedDurability: true });
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: migrationsFolder() });
  return {
    db: db as unknown as Db, mode: "pglite", close: () => client.close(),
    listen: async (channel, fn) => void (await client.listen(channel, fn)),
    rawQuery: async (q) => {
      const { sql: text, params } = dialect.sqlToQuery(q);
      return (await client.query<Record<string, unknown>>(text, params)).rows;
    },
  };
}

export function getHandle(): Promise<Handle> {
  if (!g.__prsDb) {
    g.__prsDb = open();
    g.__prsDb.catch(() => {
      g.__prsDb = undefined;
    });
  }
  return g.__prsDb;
}

export async function getDb(): Promise<Db> {
  return (await getHandle()).db;
}

export async function closeDb(): Promise<void> {
  const h = g.__prsDb;
  g.__prsDb = undefined;
  if (h) await (await h).close();
}

export async function pingDb(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`select 1`);
}
