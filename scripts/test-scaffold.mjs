// `npm run test:scaffold`: a scaffolded claim type passes the tests that iterate over claim
// types (issue 40, item 4; docs/claim-types.md, docs/testing.md). In a temporary copy of the
// working tree (the files git lists, committed or not; node_modules a symlink, so the copy's
// next.config.ts gets a Turbopack root over both), it
//   1. runs `new-claim-type` for a throw-away type (which also regenerates the SDK's snapshot),
//   2. builds the copy once (scripts/ensure-build.mjs there; its own build cache, apart from the repository's),
//   3. runs the unit and API tests that iterate over claim types (UNIT, API) and the e2e spec
//      that does (E2E: its "every kind" test and the generated recipes, the throw-away type's among them),
//      on the embedded database, and checks that tests named after the type ran and passed,
//   4. runs `new-claim-type --remove` and checks that the copy's lib/, components/, docs/ and
//      SDK are byte for byte as before,
// then deletes the copy (PRS_KEEP_SCAFFOLD=1 keeps it, to look into a failure). A test file that
// iterates over the registry but is in none of the lists fails the run before anything is built.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const TYPE = "throwaway_statement";
const KEBAB = TYPE.replaceAll("_", "-");

/** The vitest files that iterate over claim types (or read every file a type adds), run against the copy. */
const UNIT = [
  `lib/claims/${KEBAB}/${KEBAB}.test.ts`, // the type's own, as the scaffold writes it
  "lib/claims/form-spec.test.ts", // every type's form, from its schema and levels
  "lib/claims/claim-type-names.test.ts", // no file outside the kit names it or imports its module
  "lib/openapi/build-openapi.test.ts", // every type's example is a valid request; the document builds
  "packages/sdk/test/generated.test.ts", // the SDK's snapshot is the document (new-claim-type regenerated it)
  "tests/components/review-views.test.ts", // every reviewed type's review view
  "tests/structure/import-circles.test.ts", // the type's files close no import circle
  "tests/structure/layers.test.ts", // and call no layer above them
];
/** Over HTTP, against the copy's built server. */
const API = ["tests/api/claim-type-examples.test.ts"];
/** The spec's test that every kind has a recipe, and the generated recipes (the type's among them). */
const E2E = { spec: "records-every-type.spec.ts", grep: "every kind of record the portal offers|recipe generated from its form" };
/**
 * How a test file iterates over the registry (`documentedClaimTypes()`, `knownClaimTypes()`,
 * a capability's `…ClaimTypes()`, `claimFormSpecs()`): such a file belongs in UNIT, API or E2E.
 */
const ITERATES = /\b(claimFormSpecs|[a-z][A-Za-z]*ClaimTypes)\(/;
/** Iterating test files deliberately not run here, each with why. */
const NOT_RUN = {};
/** What the scaffold writes, compared before it and after `--remove`. */
const SCAFFOLD_PARTS = ["lib", "components", "docs", "packages/sdk/openapi.json", "packages/sdk/src"];

const started = Date.now();
const steps = [];
/** Run one step, remember its wall time. */
function step(name, fn) {
  const t = Date.now();
  console.log(`[prs] scaffold: ${name} ...`);
  const out = fn();
  steps.push(`${name} ${((Date.now() - t) / 1000).toFixed(0)} s`);
  return out;
}
function fail(why) {
  throw new Error(`test:scaffold: ${why}`);
}
/** Run a command in the copy; a non-zero exit fails the run. */
function run(copy, what, cmd, args, env = {}) {
  const problem = attempt(copy, what, cmd, args, env);
  if (problem) fail(problem);
}
/** What failed in the test steps, gathered: failing unit or API tests do not keep the e2e and --remove steps from running. */
const problems = [];
/** Run a command in the copy: what failed, or null. */
function attempt(copy, what, cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: copy, stdio: "inherit", env: { ...baseEnv, ...env } });
  return r.status === 0 ? null : `${what} failed (exit ${r.status ?? r.signal})`;
}

// The embedded database only, and this run's outputs in the copy (not a CI pipeline's).
const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
delete baseEnv.DATABASE_URL;
delete baseEnv.PRS_E2E_OUTPUT;

/** The working tree as git sees it, into `copy`: tracked and untracked-not-ignored files that exist. */
function copyTree(copy) {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repo, encoding: "utf8", maxBuffer: 64 << 20 });
  if (listed.status !== 0) fail(`git ls-files: ${listed.stderr}`);
  let n = 0;
  for (const rel of new Set(listed.stdout.split("\0").filter(Boolean))) {
    if (rel.split("/")[0] === "node_modules") continue; // linked below (a checkout's own may be a link git lists)
    const from = path.join(repo, rel);
    const st = fs.lstatSync(from, { throwIfNoEntry: false });
    if (!st || st.isDirectory()) continue; // deleted in the working tree (or a submodule)
    const to = path.join(copy, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (st.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
    else fs.copyFileSync(from, to);
    n++;
  }
  fs.symlinkSync(path.join(repo, "node_modules"), path.join(copy, "node_modules"), "dir");
  rootOverBoth(copy);
  console.log(`[prs] scaffold: ${n} files copied to ${copy}, node_modules linked`);
}

/**
 * Turbopack compiles nothing outside its root, and the copy's node_modules is a link into the
 * repository: the copy's next.config.ts (the copy's only) gets a root holding both, as Next.js
 * documents for linked packages (`turbopack.root`, and `outputFileTracingRoot` the same) — the
 * filesystem's, so the build's inputs and cache key do not depend on where the two are.
 */
function rootOverBoth(copy) {
  const root = path.parse(copy).root;
  const file = path.join(copy, "next.config.ts");
  const text = fs.readFileSync(file, "utf8");
  const open = "const nextConfig: NextConfig = {\n";
  if (!text.includes(open) || /turbopack|outputFileTracingRoot/.test(text)) {
    fail(`next.config.ts no longer reads as scripts/test-scaffold.mjs expects (one \`${open.trim()}\`, no Turbopack root of its own): update rootOverBoth`);
  }
  fs.writeFileSync(file, text.replace(open, `${open}  turbopack: { root: ${JSON.stringify(root)} },\n  outputFileTracingRoot: ${JSON.stringify(root)},\n`));
}

/** Every file under the scaffold's parts, with its content. */
function snapshot(copy) {
  const out = new Map();
  const walk = (rel) => {
    const abs = path.join(copy, rel);
    const st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) for (const e of fs.readdirSync(abs).sort()) walk(path.join(rel, e));
    else out.set(rel, fs.readFileSync(abs, "utf8"));
  };
  SCAFFOLD_PARTS.forEach(walk);
  return out;
}
const differences = (a, b) => [...new Set([...a.keys(), ...b.keys()])].filter((f) => a.get(f) !== b.get(f)).sort();

/** Fail when a test file iterates over the registry but is neither run here nor excused. */
function checkLists(copy) {
  const listed = new Set([...UNIT, ...API, `e2e/${E2E.spec}`, ...Object.keys(NOT_RUN)]);
  const found = [];
  const walk = (rel) => {
    const abs = path.join(copy, rel);
    if (fs.statSync(abs).isDirectory()) {
      for (const e of fs.readdirSync(abs)) if (e !== "node_modules") walk(path.join(rel, e));
    } else if (/\.(test|spec)\.tsx?$/.test(rel) && ITERATES.test(fs.readFileSync(abs, "utf8"))) found.push(rel);
  };
  ["lib", "tests", "e2e", "packages", "components"].forEach((d) => fs.existsSync(path.join(copy, d)) && walk(d));
  const missing = found.filter((f) => !listed.has(f));
  if (missing.length) fail(`these tests iterate over claim types but scripts/test-scaffold.mjs does not run them (add them to UNIT, API or E2E, or to NOT_RUN with why): ${missing.join(", ")}`);
  const own = `lib/claims/${KEBAB}/${KEBAB}.test.ts`; // written by the scaffold
  for (const f of [...UNIT, ...API, `e2e/${E2E.spec}`]) if (f !== own && !fs.existsSync(path.join(copy, f))) fail(`${f} does not exist`);
}

/** Names of the passed tests (vitest's JSON report), by file relative to the copy. */
function vitestPassed(copy, report) {
  const json = JSON.parse(fs.readFileSync(report, "utf8"));
  const byFile = new Map();
  for (const file of json.testResults) {
    const rel = path.relative(copy, file.name);
    if (file.status !== "passed") problems.push(`${rel}: ${file.status}`);
    byFile.set(rel, file.assertionResults.filter((a) => a.status === "passed").map((a) => a.fullName));
  }
  return byFile;
}

/** Titles of the passed tests (Playwright's JSON report). */
function playwrightPassed(report) {
  const json = JSON.parse(fs.readFileSync(report, "utf8"));
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) if (spec.ok && spec.tests.every((t) => t.results.every((r) => r.status === "passed"))) out.push(spec.title);
    for (const s of suite.suites ?? []) walk(s);
  };
  json.suites.forEach(walk);
  return out;
}

const copy = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "prs-scaffold-suite-")));
let ok = false;
try {
  step("copy", () => copyTree(copy));
  const bin = (name) => path.join(copy, "node_modules", ".bin", name);
  checkLists(copy);
  const before = snapshot(copy);

  step(`new-claim-type ${TYPE}`, () => run(copy, "new-claim-type", process.execPath, ["scripts/new-claim-type.mjs", TYPE]));
  // Its files, one line in each registry, its docs entry, and the SDK's snapshot regenerated.
  const changed = differences(before, snapshot(copy));
  const expected = [
    `components/claims/${KEBAB}.tsx`, "components/claims/index.ts", "docs/claim-types.md", `lib/claims/${KEBAB}/${KEBAB}.test.ts`, `lib/claims/${KEBAB}/index.ts`,
    "lib/claims/registry.ts", "packages/sdk/openapi.json", "packages/sdk/src/generated/openapi.ts",
  ].sort();
  if (changed.join() !== expected.join()) fail(`new-claim-type changed ${changed.join(", ")}; expected ${expected.join(", ")}`);

  // A build cache of its own: the scaffolded sources never match the repository's, and must not push its builds out.
  const cache = process.env.PRS_BUILD_CACHE === "off" ? "off"
    : (process.env.PRS_SCAFFOLD_BUILD_CACHE ?? path.join(os.homedir(), ".cache", "proof-records", "scaffold-builds"));
  step("build", () => run(copy, "the build", process.execPath, ["scripts/ensure-build.mjs"], { PRS_BUILD_CACHE: cache }));

  const vitestReport = path.join(copy, "vitest-report.json");
  const vitestFailed = step("vitest (unit and API)", () =>
    attempt(copy, "vitest", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestReport}`, ...UNIT, ...API]));
  if (vitestFailed) problems.push(vitestFailed);
  const passed = fs.existsSync(vitestReport) ? vitestPassed(copy, vitestReport) : new Map();
  for (const f of [...UNIT, ...API]) if (!passed.has(f)) problems.push(`${f} did not run`);
  const naming = [...passed].filter(([, names]) => names.some((n) => n.includes(TYPE))).map(([f]) => f).sort();
  for (const f of [`lib/claims/${KEBAB}/${KEBAB}.test.ts`, ...API]) {
    if (!naming.includes(f)) problems.push(`no passed test in ${f} names ${TYPE}: the type was not exercised`);
  }
  console.log(`[prs] scaffold: vitest: ${[...passed.values()].flat().length} passed in ${passed.size} files; tests naming ${TYPE} passed in ${naming.join(", ") || "none"}`);

  step("chromium", () => run(copy, "chromium", process.execPath, ["--input-type=module", "-e", 'import { ensureChromium } from "./scripts/chromium.mjs"; ensureChromium();']));
  const e2eReport = path.join(copy, "e2e-report.json");
  const e2eFailed = step("e2e", () => attempt(copy, "playwright", bin("playwright"), ["test", "-c", "e2e/playwright.config.ts", E2E.spec, "--grep", E2E.grep, "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_FILE: e2eReport, PRS_E2E_OUTPUT: path.join(copy, "test-results"),
  }));
  if (e2eFailed) problems.push(e2eFailed);
  const titles = fs.existsSync(e2eReport) ? playwrightPassed(e2eReport) : [];
  if (!titles.some((t) => t.startsWith("every kind of record"))) problems.push("the e2e test that every kind has a recipe did not pass");
  if (!titles.some((t) => t.startsWith(`${TYPE}: `))) problems.push(`no passed e2e test names ${TYPE}: its generated recipe did not pass`);
  console.log(`[prs] scaffold: e2e passed: ${titles.join("; ") || "none"}`);

  step(`new-claim-type --remove ${TYPE}`, () => run(copy, "new-claim-type --remove", process.execPath, ["scripts/new-claim-type.mjs", "--remove", TYPE]));
  const left = differences(before, snapshot(copy));
  if (left.length) problems.push(`--remove left the tree changed: ${left.join(", ")}`);
  if (problems.length) fail(problems.join("\n  "));
  ok = true;
} catch (e) {
  console.error(e instanceof Error && e.message.startsWith("test:scaffold:") ? e.message : e);
  process.exitCode = 1;
} finally {
  if (ok || process.env.PRS_KEEP_SCAFFOLD !== "1") fs.rmSync(copy, { recursive: true, force: true });
  else console.log(`[prs] scaffold: kept ${copy}`);
  console.log(`[prs] scaffold: ${steps.join(", ")}`);
  console.log(`[prs] stage scaffold (PGlite): ${((Date.now() - started) / 1000).toFixed(0)} s${ok ? "" : ", failed"}`);
}
