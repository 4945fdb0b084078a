import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/lib/db/client";
import { keyring, publishedKeysLoaded } from "@/lib/signing/keys";
import { logConflict } from "@/lib/tlog/health";

/**
 * Readiness for a load balancer (GET /api/health/ready): the database answers, every
 * migration this build ships is applied, a signing key is loaded, and the transparency log
 * has not stopped on a conflict (lib/tlog/health.ts). Each part is reported; the answer is
 * 200 only when all hold.
 */
export type Readiness = {
  status: "ok" | "unavailable";
  database: "ok" | "unreachable";
  migrations: { status: "ok" | "pending" | "unknown"; applied: number | null; expected: number };
  signing_key: "ok" | "missing";
  transparency_log: "ok" | "conflict";
};

function expectedMigrations(): number {
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(process.cwd(), "drizzle", "migrations", "meta", "_journal.json"), "utf8"));
    return Array.isArray(journal.entries) ? journal.entries.length : 0;
  } catch {
    return 0;
  }
}

export async function readiness(): Promise<Readiness> {
  const expected = expectedMigrations();
  let database: Readiness["database"] = "ok";
  let applied: number | null = null;
  try {
    const db = await getDb();
    const rows = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
    applied = Number(rows[0]?.n ?? 0);
  } catch {
    database = "unreachable";
  }
  let signingKey: Readiness["signing_key"] = "ok";
  try {
    // Loaded and published: keyring() throws when no key of this process is published yet.
    if (!publishedKeysLoaded() || !keyring().active) signingKey = "missing";
  } catch {
    signingKey = "missing";
  }
  const migrations: Readiness["migrations"] = {
    status: applied === null ? "unknown" : applied >= expected ? "ok" : "pending", applied, expected,
  };
  const transparencyLog: Readiness["transparency_log"] = logConflict() ? "conflict" : "ok";
  const ok = database === "ok" && migrations.status === "ok" && signingKey === "ok" && transparencyLog === "ok";
  return { status: ok ? "ok" : "unavailable", database, migrations, signing_key: signingKey, transparency_log: transparencyLog };
}
