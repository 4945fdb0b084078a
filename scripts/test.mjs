// `npm test`: build the app if its sources changed, then the vitest suite against a started
// server (embedded PGlite, or PostgreSQL when DATABASE_URL is set) and, beside it, the
// Playwright end-to-end suite in Debian's Chromium (installed with apt-get if missing) against
// a server of its own (on PostgreSQL, in a database of its own). The two mostly wait on
// different things (timers, a browser, a chain), so side by side they fill each other's idle
// time; each line is prefixed with its suite. PRS_TEST_SERIAL=1 runs them one after the other.
// Arguments go to vitest and skip the e2e suite; PRS_SKIP_E2E=1 skips it too.
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { ensureBuild } from "./ensure-build.mjs";
import { ensureChromium } from "./chromium.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const database = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

/** Say how long a stage took (the wall time CI prints per stage). */
const report = (name, started, status) =>
  console.log(`[prs] stage ${name} (${database}): ${((Date.now() - started) / 1000).toFixed(0)} s${status ? `, exit ${status}` : ""}`);

/** Run one suite to its end; with `prefix`, each of its lines carries it. Resolves to its exit status. */
function run(name, command, args, prefix) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (prefix) {
      for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        readline.createInterface({ input: stream }).on("line", (line) => out.write(`${prefix}${line}\n`));
      }
    }
    child.on("error", (e) => {
      console.error(`[prs] ${name}: ${e.message}`);
      report(name, started, 1);
      resolve(1);
    });
    child.on("close", (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      report(name, started, status);
      resolve(status);
    });
  });
}

const started = Date.now();
ensureBuild();
report("build", started, 0);
const args = process.argv.slice(2);
console.log(`[prs] tests on ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite"}`);
const vitest = () => run("vitest", bin("vitest"), ["run", ...args], serialOrAlone ? undefined : "[vitest] ");
const e2e = () => run("e2e", bin("playwright"), ["test", "-c", "e2e/playwright.config.ts"], serialOrAlone ? undefined : "[e2e] ");

const withE2e = args.length === 0 && process.env.PRS_SKIP_E2E !== "1";
const serialOrAlone = !withE2e || process.env.PRS_TEST_SERIAL === "1";
if (!withE2e) process.exit(await vitest());
ensureChromium();
if (serialOrAlone) {
  const unit = await vitest();
  if (unit !== 0) process.exit(unit);
  console.log("[prs] end-to-end tests (Playwright, Debian Chromium)");
  process.exit(await e2e());
}
console.log("[prs] vitest and the end-to-end tests (Playwright, Debian Chromium) side by side");
const [unit, browser] = await Promise.all([vitest(), e2e()]);
process.exit(unit || browser);
