// `npm test`: build the app if its sources changed, then run the vitest suite against
// the started server (embedded PGlite, or PostgreSQL when DATABASE_URL is set).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
ensureBuild();
console.log(`[prs] tests on ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite"}`);
const r = spawnSync(path.join(root, "node_modules", ".bin", "vitest"), ["run", ...process.argv.slice(2)], {
  cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
process.exit(r.status ?? 1);
