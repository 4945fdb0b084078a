// `npm test`: build the app if its sources changed, then run the vitest suite against
// the started server (embedded PGlite, or PostgreSQL when DATABASE_URL is set), then the
// Playwright end-to-end suite in Debian's Chromium (installed with apt-get if missing).
// Arguments go to vitest and skip the e2e suite; PRS_SKIP_E2E=1 skips it too.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const CHROMIUM = process.env.PRS_CHROMIUM ?? "/usr/bin/chromium";

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  console.log(`[prs] ${CHROMIUM} is missing; installing Debian's chromium with apt-get`);
  const asRoot = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args) => {
    const [cmd, ...rest] = [...asRoot, ...args];
    return spawnSync(cmd, rest, { stdio: "inherit", env: { ...env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
  };
  const listsEmpty = !fs.existsSync("/var/lib/apt/lists") ||
    fs.readdirSync("/var/lib/apt/lists").filter((f) => f.endsWith("Packages") || f.endsWith("Packages.lz4")).length === 0;
  if (listsEmpty) run(["apt-get", "update"]);
  if (!run(["apt-get", "install", "-y", "--no-install-recommends", "chromium"])) {
    run(["apt-get", "update"]);
    if (!run(["apt-get", "install", "-y", "--no-install-recommends", "chromium"]) || !fs.existsSync(CHROMIUM)) {
      console.error("[prs] could not install chromium; the e2e suite needs it (set PRS_SKIP_E2E=1 to skip)");
      process.exit(1);
    }
  }
}

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
