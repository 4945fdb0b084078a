import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { getEnv } from "@/lib/env";

let cached: string | undefined;

/**
 * NEXTAUTH_SECRET, or — when unset (local use, tests) — a random secret kept in
 * DATA_DIR/auth-secret (mode 0600), like the generated signing keys. Deployments with
 * more than one instance must set NEXTAUTH_SECRET so all of them agree.
 */
export function getAuthSecret(): string {
  if (cached) return cached;
  const env = getEnv();
  if (env.NEXTAUTH_SECRET) return (cached = env.NEXTAUTH_SECRET);
  const file = path.join(env.dataDir, "auth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
    fs.chmodSync(tmp, 0o600);
    // Two processes racing: link fails for the loser, which then reads the winner's secret.
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file}: auth secret too short; delete it or set NEXTAUTH_SECRET`);
  return (cached = secret);
}
