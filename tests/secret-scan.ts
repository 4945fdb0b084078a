import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Every exchange API key and secret the tests send contains this marker (tests/api/
 * exchange-trade.test.ts); none may be kept anywhere by the service.
 */
export const SECRET_MARKER = "PRSXSECRET";

function* files(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

/**
 * After the whole run: the embedded database's files (or a pg_dump of the PostgreSQL
 * database) and the server's log hold no byte sequence of the marker. Throws naming where.
 */
export async function assertNoSecretsKept(o: { dataDir: string; logFile: string; databaseUrl?: string }) {
  const marker = Buffer.from(SECRET_MARKER);
  const found: string[] = [];
  if (fs.existsSync(o.logFile) && fs.readFileSync(o.logFile).includes(marker)) found.push(o.logFile);
  if (o.databaseUrl) {
    const dump = execFileSync("pg_dump", ["--data-only", o.databaseUrl], { maxBuffer: 1 << 30 });
    if (dump.includes(marker)) found.push("pg_dump of DATABASE_URL");
  } else {
    for (const f of files(path.join(o.dataDir, "pglite"))) if (fs.readFileSync(f).includes(marker)) found.push(f);
  }
  if (found.length > 0) throw new Error(`exchange credentials were kept by the service: ${found.join(", ")}`);
}
