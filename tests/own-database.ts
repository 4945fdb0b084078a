import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDatabase } from "./db-template";

/**
 * For a data-layer test that must not share its database with the test server (whose delivery
 * worker and sweeps would act on its rows): on PostgreSQL, a fresh database of its own, named
 * `prs_<label>_…`, which process.env.DATABASE_URL points at from now on; on PGlite (no
 * DATABASE_URL) the test's own DATA_DIR already is one (tests/db/setup.ts seeds it). Both are copies of the run's migrated template (tests/db-template.ts). Call before importing lib/db/client;
 * `drop()` removes the database (after closeDb).
 */
export async function useOwnDatabase(label: string): Promise<{ drop: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return { drop: async () => {} };
  const name = `prs_${label}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = () => postgres(adminUrl, { max: 1, onnotice: () => {} });
  await createDatabase(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  return {
    drop: async () => {
      const s = admin();
      await s.unsafe(`drop database if exists ${name} with (force)`);
      await s.end();
    },
  };
}
