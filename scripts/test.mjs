// `npm test`: build the app if its sources changed, then run the vitest suite against
// the started server (embedded PGlite, or PostgreSQL when DATABASE_URL is set), then the
// Playwright end-to-end suite in Debian's Chromium (installed with apt-get if missing).
// Arguments go to vitest and skip the e2e suite; PRS_SKIP_E2E=1 skips it too.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { ensureChromium } from "./chromium.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const database = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";
/** Run one stage and say how long it took (the wall time CI prints per stage). */
function stage(name, fn) {
  const started = Date.now();
  const status = fn();
  console.log(`[prs] stage ${name} (${database}): ${((Date.now() - started) / 1000).toFixed(0)} s${status ? `, exit ${status}` : ""}`);
  return status;
}

stage("build", () => (ensureBuild(), 0));
const args = process.argv.slice(2);
console.log(`[prs] tests on ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite"}`);
const unit = stage("vitest", () => spawnSync(bin("vitest"), ["run", ...args], { cwd: root, stdio: "inherit", env }).status ?? 1);
if (unit !== 0) process.exit(unit);
if (args.length > 0 || process.env.PRS_SKIP_E2E === "1") process.exit(0);

ensureChromium();
console.log("[prs] end-to-end tests (Playwright, Debian Chromium)");
process.exit(stage("e2e", () => spawnSync(bin("playwright"), ["test", "-c", "e2e/playwright.config.ts"], { cwd: root, stdio: "inherit", env }).status ?? 1));
