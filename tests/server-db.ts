import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { inject } from "vitest";

/**
 * Plain SQL on the shared test server's own database, for tests that must change stored
 * data the API never would (tampering). On PostgreSQL that is DATABASE_URL. In the embedded
 * mode the server's database thread serves PGlite on a unix socket in its data folder
 * (lib/db/client.ts; folder 0700, this user only): the same access an operator with a shell
 * on the host has, and no route of the server is involved. Statements are named prepared
 * ones with postgres-js's random per-connection names, as the server's own client uses on
 * that socket, so they never meet the server's statements in PGlite's single session.
 */
export async function withServerDb<T>(fn: (sql: postgres.Sql) => Promise<T>, server?: { env: Record<string, string> }): Promise<T> {
  // Another started server's (its env names its DATA_DIR and DATABASE_URL), else the shared one's.
  const url = server ? server.env.DATABASE_URL : inject("serverEnv").DATABASE_URL;
  let sql: postgres.Sql;
  if (url) {
    sql = postgres(url, { max: 1, onnotice: () => {} });
  } else {
    const socket = path.join(server ? server.env.DATA_DIR! : inject("dataDir"), "pglite-socket", ".s.PGSQL.5432");
    if (!fs.existsSync(socket)) throw new Error(`no PGlite socket at ${socket}: is the test server running on PGlite?`);
    sql = postgres({ path: socket, user: "postgres", database: "template1", max: 1, prepare: true, onnotice: () => {} });
  }
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
