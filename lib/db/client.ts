import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "@/drizzle/schema";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log/logger";

export type Schema = typeof schema;
/** One data layer, two drivers: both drizzle flavours share this interface. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export type Handle = {
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
  /**
   * Run `fn` unless another process holds the session advisory lock `key` (then skip: false).
   * On PostgreSQL the lock lives on a reserved connection, so it is released when this
   * process dies; the embedded database has one process, so `fn` always runs.
   */
  exclusively: (key: number, fn: () => Promise<void>) => Promise<boolean>;
};

const dialect = new PgDialect();

/** Rows of a `db.execute` result: postgres-js returns an array, PGlite `{ rows }`. */
export const rowsOf = <T = Record<string, unknown>>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

// Next can load a module more than once (route bundles, instrumentation); PGlite allows
// one instance per data folder, so the handle lives on globalThis.
const g = globalThis as unknown as { __prsDb?: Promise<Handle>; __prsPgliteWorker?: boolean };

/**
 * Run the embedded database in a worker thread instead of in this one (the server calls this
 * before its first query; scripts and db tests keep PGlite in-process). See docs/decisions.md.
 */
export function runPgliteInWorker(): void {
  g.__prsPgliteWorker = true;
}

function migrationsFolder(): string {
  const candidates = [path.join(process.cwd(), "drizzle", "migrations")];
  const found = candidates.find((p) => fs.existsSync(path.join(p, "meta", "_journal.json")));
  if (!found) throw new Error(`drizzle migrations not found (looked in ${candidates.join(", ")})`);
  return found;
}

type PgTarget = { url: string } | { path: string };

/** postgres-js + drizzle on a PostgreSQL server, or on PGlite served by the worker thread. */
async function openPostgres(
  target: PgTarget, poolSize: number, mode: Handle["mode"], lock: boolean, stop: () => Promise<void>,
): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const listeners = new Map<string, ((payload: string) => void)[]>();
  const options = {
    onnotice: () => {},
    ...("url" in target ? {} : {
      // pglite-socket: one PGlite session behind it, no auth, LISTEN state kept by PGlite
      // itself; notifications arrive on the connection whose query produced them.
      path: target.path, user: "postgres", database: "template1", max_lifetime: null, idle_timeout: 0,
      onnotify: (channel: string, payload: string) => listeners.get(channel)?.forEach((fn) => fn(payload)),
    }),
  };
  const connect = (max: number) =>
    "url" in target ? postgres(target.url, { ...options, max }) : postgres({ ...options, max });
  // Several processes may start at once: one migrates, the others wait on the lock. A
  // one-connection client keeps the session-level advisory lock on the migrating session.
  const migrator = connect(1);
  try {
    if (lock) await migrator`select pg_advisory_lock(727001)`;
    await migrate(drizzle({ client: migrator, schema }), { migrationsFolder: migrationsFolder() });
    if (lock) await migrator`select pg_advisory_unlock(727001)`;
  } finally {
    await migrator.end({ timeout: 5 });
  }
  const client = connect(poolSize);
  const prepare = !("url" in target) || getEnv().DB_PREPARE === "1";
  const db = drizzle({ client: prepare ? preparing(client) : client, schema });
  return {
    db: db as unknown as Db, mode,
    close: async () => {
      await client.end({ timeout: 5 });
      await stop();
    },
    listen: "url" in target
      ? async (channel, fn) => void (await client.listen(channel, (p) => fn(p)))
      : async (channel, fn) => {
        if (!listeners.has(channel)) {
          listeners.set(channel, []);
          await client.unsafe(`listen "${channel.replaceAll('"', '""')}"`);
        }
        listeners.get(channel)!.push(fn);
      },
    rawQuery: async (q) => {
      const { sql: text, params } = dialect.sqlToQuery(q);
      return (await client.unsafe(text, params as never[], { prepare })) as unknown as Record<string, unknown>[];
    },
    exclusively: !lock ? runAlways : async (key, fn) => {
      const conn = await client.reserve();
      try {
        const [row] = await conn`select pg_try_advisory_lock(${key}) as ok`;
        if (!row?.ok) return false;
        try {
          await fn();
        } finally {
          await conn`select pg_advisory_unlock(${key})`;
        }
        return true;
      } finally {
        conn.release();
      }
    },
  };
}

const runAlways = async (_key: number, fn: () => Promise<void>) => {
  await fn();
  return true;
};

/**
 * drizzle sends every query unnamed, so postgres-js first asks for the parameter types
 * (Parse/Describe/Sync) and then runs it: two round trips per statement. To the PGlite
 * worker each round trip waits for this (busy) thread to read the answer, and a transaction
 * holds the one session meanwhile; named prepared statements, described once per
 * connection, need one.
 */
function preparing<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "unsafe") {
        return (q: string, params?: unknown[], opts?: object) =>
          (value as (...a: unknown[]) => unknown).call(target, q, params, { ...opts, prepare: true });
      }
      if (prop === "begin" || prop === "savepoint") {
        return (...args: unknown[]) => {
          const i = args.findIndex((a) => typeof a === "function");
          const fn = args[i] as (tx: object) => unknown;
          args[i] = (tx: object) => fn(preparing(tx));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value;
    },
  });
}

/**
 * PGlite (WASM, synchronous while it runs a query) in a worker thread, served over a unix
 * socket by @electric-sql/pglite-socket, so queries no longer stall request handling here.
 */
async function openPgliteWorker(dir: string, dataDir: string): Promise<Handle> {
  const os = await import("node:os");
  const { Worker } = await import("node:worker_threads");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A private (0700) folder for the socket; unix socket paths are limited to ~104 bytes.
  let sockDir = path.join(dataDir, "pglite-socket");
  if (path.join(sockDir, ".s.PGSQL.5432").length > 100) sockDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-pglite-"));
  fs.mkdirSync(sockDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(sockDir, 0o700);
  const socketPath = path.join(sockDir, ".s.PGSQL.5432");
  const worker = new Worker(path.join(process.cwd(), "scripts", "pglite-worker.mjs"), { workerData: { dir, socketPath } });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`PGlite worker exited (${code}) before it was ready`)));
  });
  worker.removeAllListeners("exit").removeAllListeners("error");
  worker.on("error", (err) => log().error({ err }, "PGlite worker failed"));
  worker.unref(); // the server's own handles keep the process alive, not the database thread
  const stop = async () => {
    const closed = new Promise<void>((resolve) => {
      worker.once("message", () => resolve());
      worker.once("exit", () => resolve());
    });
    worker.postMessage("close");
    await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
    await worker.terminate();
  };
  try {
    return await openPostgres({ path: socketPath }, 1, "pglite", false, stop);
  } catch (e) {
    await worker.terminate();
    throw e;
  }
}

async function open(): Promise<Handle> {
  const env = getEnv();
  if (env.DATABASE_URL) return openPostgres({ url: env.DATABASE_URL }, env.DB_POOL_SIZE, "postgres", true, async () => {});
  if (g.__prsPgliteWorker) return openPgliteWorker(path.join(env.dataDir, "pglite"), env.dataDir);
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = path.join(env.dataDir, "pglite");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // relaxedDurability only stops PGlite awaiting its post-query syncToFs, which is a no-op on
  // NodeFS (writes go straight to the data folder); it saves a mutex round trip per query.
  // pg_trgm: the directory's search index (migration 0028); scripts/pglite-worker.mjs loads it too.
  const client = await PGlite.create(dir, { relaxedDurability: true, extensions: { pg_trgm } });
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: migrationsFolder() });
  return {
    db: db as unknown as Db, mode: "pglite", close: () => client.close(),
    listen: async (channel, fn) => void (await client.listen(channel, fn)),
    exclusively: runAlways,
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
