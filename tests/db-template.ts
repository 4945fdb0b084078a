import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

/**
 * Migrated templates, so a test's fresh database is a copy, not a migration run. Migrating an
 * empty database costs seconds (on PGlite: its initdb in WASM, then every migration), and the
 * suites open dozens of fresh databases: the data-layer tests one each, the servers some files
 * start, both global setups.
 *
 * - PGlite: a data folder migrated once per migration set, kept in the temp folder under a name
 *   made from the migrations' and PGlite's content (so it can only ever hold what those
 *   migrations make), written to a temporary name and renamed when complete; `seedPglite(dataDir)`
 *   copies it to `<dataDir>/pglite`, which is where lib/db/client.ts opens PGlite.
 * - PostgreSQL: a database `prs_tpl_…` migrated once per run (the global setup's), and dropped
 *   by it afterwards; `createDatabase(adminUrl, name)` makes `CREATE DATABASE name TEMPLATE …`.
 *
 * The service still runs its migrator on every start: on a copy it finds every migration applied.
 * Where the template was made is handed to test files and servers through the environment
 * (PRS_TEST_PGLITE_TEMPLATE, PRS_TEST_PG_TEMPLATE), which forks and child processes inherit.
 */

const root = path.resolve(import.meta.dirname, "..");
const migrationsDir = path.join(root, "drizzle", "migrations");

/** A name for what a migrated database holds: every migration file and the PGlite build. */
function migrationsHash(): string {
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else h.update(path.relative(migrationsDir, p)).update("\0").update(fs.readFileSync(p));
    }
  };
  walk(migrationsDir);
  const pglite = JSON.parse(fs.readFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8"));
  h.update(`pglite ${pglite.version}`);
  return h.digest("hex").slice(0, 16);
}

/**
 * The migrated PGlite data folder for the current migrations, made now if there is none; its
 * path is also put in PRS_TEST_PGLITE_TEMPLATE for everything started after.
 */
export async function preparePgliteTemplate(): Promise<string> {
  const dir = path.join(os.tmpdir(), `prs-pglite-template-${migrationsHash()}`);
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    const building = `${dir}.part-${process.pid}-${randomBytes(3).toString("hex")}`;
    const { PGlite } = await import("@electric-sql/pglite");
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = await PGlite.create(building, { extensions: { pg_trgm } });
    try {
      await migrate(drizzle({ client }), { migrationsFolder: migrationsDir });
    } finally {
      await client.close();
    }
    try {
      fs.renameSync(building, dir);
    } catch (e) {
      // Another run finished the same template first: theirs is as good as ours.
      fs.rmSync(building, { recursive: true, force: true });
      if (!fs.existsSync(path.join(dir, "PG_VERSION"))) throw e;
    }
  }
  process.env.PRS_TEST_PGLITE_TEMPLATE = dir;
  return dir;
}

/**
 * Give `dataDir` a migrated embedded database (a copy of the template) unless it has one or
 * no template was prepared. For any DATA_DIR a test uses with PGlite, before the service or
 * lib/db/client opens it.
 */
export function seedPglite(dataDir: string): void {
  const template = process.env.PRS_TEST_PGLITE_TEMPLATE;
  const target = path.join(dataDir, "pglite");
  if (!template || fs.existsSync(target)) return;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.cpSync(template, target, { recursive: true });
  fs.chmodSync(target, 0o700);
}

const adminClient = (url: string) => postgres(url, { max: 1, onnotice: () => {} });

/**
 * A migrated PostgreSQL database on `adminUrl`'s server for this run's fresh databases to copy;
 * its name is put in PRS_TEST_PG_TEMPLATE. Returns how to drop it.
 */
export async function preparePgTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `prs_tpl_${process.pid}_${randomBytes(3).toString("hex")}`;
  const sql = adminClient(adminUrl);
  try {
    await sql.unsafe(`create database ${name}`);
  } finally {
    await sql.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const migrator = adminClient(url.toString());
  try {
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(drizzle({ client: migrator }), { migrationsFolder: migrationsDir });
  } finally {
    await migrator.end();
  }
  process.env.PRS_TEST_PG_TEMPLATE = name;
  return {
    name,
    drop: async () => {
      const s = adminClient(adminUrl);
      try {
        await s.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await s.end();
      }
    },
  };
}

/**
 * `CREATE DATABASE name` on `adminUrl`'s server: a copy of the run's migrated template when
 * there is one, else empty (the service migrates it when it starts).
 */
export async function createDatabase(adminUrl: string, name: string): Promise<void> {
  const template = process.env.PRS_TEST_PG_TEMPLATE;
  const sql = adminClient(adminUrl);
  try {
    await sql.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
  } finally {
    await sql.end();
  }
}
