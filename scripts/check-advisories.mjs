#!/usr/bin/env node
// `npm run check:advisories`: are any of the package versions in package-lock.json behind a
// known high or critical advisory? Asks the registry first (`npm audit`); when it cannot
// answer (our mirror refuses the advisory endpoint with 405), checks every installed
// version against the committed list security/advisories.json. Prints each match; exits 1
// on a high or critical one, 2 when the check itself could not run, 0 otherwise (moderate
// and low matches are printed, not fatal). docs/security.md says how to refresh the list.
//
//   --offline            skip npm audit, use the committed list
//   --lock <file>        another lock file (default: package-lock.json)
//   --advisories <file>  another list (default: security/advisories.json)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import semver from "semver";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SEVERITIES = ["low", "moderate", "high", "critical"];
const FATAL = new Set(["high", "critical"]);

function args(argv) {
  const opts = { offline: false, lock: path.join(root, "package-lock.json"), advisories: path.join(root, "security", "advisories.json") };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--offline") opts.offline = true;
    else if (a === "--lock" && argv[i + 1]) opts.lock = path.resolve(argv[++i]);
    else if (a === "--advisories" && argv[i + 1]) opts.advisories = path.resolve(argv[++i]);
    else fail(`unknown argument ${a}`);
  }
  return opts;
}

function fail(message) {
  console.error(`[advisories] ${message}`);
  process.exit(2);
}

function readJson(file, what) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    fail(`cannot read ${what} ${file}: ${e.message}`);
  }
}

/** `npm audit`'s report, or null when the registry cannot answer (mirror, offline, error). */
function npmAudit(lockFile) {
  const r = spawnSync("npm", ["audit", "--json", "--package-lock-only"], {
    cwd: path.dirname(lockFile), encoding: "utf8", timeout: 120_000, env: { ...process.env, npm_config_fund: "false" },
  });
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    return null;
  }
  // A failed audit still prints JSON: `{message, statusCode, error}` rather than a report.
  if (!report || typeof report !== "object" || report.auditReportVersion !== 2 || typeof report.vulnerabilities !== "object") return null;
  return report;
}

/** Findings from npm audit's report: one per vulnerable package, with the advisories behind it. */
function fromAudit(report) {
  return Object.values(report.vulnerabilities).map((v) => ({
    package: v.name,
    versions: v.range,
    severity: v.severity,
    ids: v.via.filter((x) => typeof x === "object").map((x) => `${x.url ?? x.source}: ${x.title}`),
    fixed: v.fixAvailable === false ? "no fix" : typeof v.fixAvailable === "object" ? `${v.fixAvailable.name}@${v.fixAvailable.version}` : "fix available",
  }));
}

/** The committed list, each entry checked, so a typo cannot quietly match nothing. */
function loadAdvisories(file) {
  const list = readJson(file, "advisory list");
  if (!Array.isArray(list?.advisories)) fail(`${file}: expected {"advisories": [...]}`);
  return list.advisories.map((a, i) => {
    const where = `${file}: advisories[${i}]`;
    if (typeof a?.package !== "string" || !a.package) fail(`${where}: "package" missing`);
    if (typeof a.id !== "string" || !/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/.test(a.id)) fail(`${where}: "id" must be a GHSA id, not ${JSON.stringify(a.id)}`);
    if (!SEVERITIES.includes(a.severity)) fail(`${where}: "severity" must be one of ${SEVERITIES.join(", ")}`);
    if (typeof a.vulnerable !== "string" || semver.validRange(a.vulnerable) === null) fail(`${where}: "vulnerable" is not a semver range: ${JSON.stringify(a.vulnerable)}`);
    if (typeof a.fixed !== "string" || !semver.valid(a.fixed)) fail(`${where}: "fixed" is not a version: ${JSON.stringify(a.fixed)}`);
    return a;
  });
}

/** Every installed package of the lock (v2/v3 `packages`): name → set of versions. */
function installed(lock, file) {
  if (typeof lock?.packages !== "object") fail(`${file}: no "packages" (lockfileVersion 2 or 3 is needed)`);
  const byName = new Map();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key || entry.link || typeof entry.version !== "string") continue; // the project itself, workspace links
    const name = entry.name ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
    if (!byName.has(name)) byName.set(name, new Set());
    byName.get(name).add(entry.version);
  }
  return byName;
}

function fromList(lock, lockFile, advisories) {
  const versions = installed(lock, lockFile);
  const findings = [];
  for (const a of advisories) {
    for (const v of versions.get(a.package) ?? []) {
      if (semver.satisfies(v, a.vulnerable, { includePrerelease: true })) {
        findings.push({ package: a.package, versions: v, severity: a.severity, ids: [`${a.id}: ${a.title}`], fixed: a.fixed });
      }
    }
  }
  return { findings, packages: versions.size };
}

const opts = args(process.argv.slice(2));
const lock = readJson(opts.lock, "lock file");
let findings;
const report = opts.offline ? null : npmAudit(opts.lock);
if (report) {
  findings = fromAudit(report);
  console.log(`[advisories] npm audit answered: ${findings.length} vulnerable package(s)`);
} else {
  const advisories = loadAdvisories(opts.advisories);
  const r = fromList(lock, opts.lock, advisories);
  findings = r.findings;
  console.log(
    `[advisories] ${opts.offline ? "--offline" : "npm audit could not answer (registry)"}: checked ${r.packages} package(s) of ` +
      `${path.relative(process.cwd(), opts.lock) || opts.lock} against ${advisories.length} advisories in ${path.relative(process.cwd(), opts.advisories) || opts.advisories}`,
  );
}

findings.sort((a, b) => SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity) || a.package.localeCompare(b.package));
for (const f of findings) {
  const line = `${f.severity.toUpperCase()} ${f.package}@${f.versions} — ${f.ids.join("; ")} (fixed: ${f.fixed})`;
  if (FATAL.has(f.severity)) console.error(`[advisories] ${line}`);
  else console.log(`[advisories] ${line}`);
}
const fatal = findings.filter((f) => FATAL.has(f.severity)).length;
console.log(`[advisories] ${fatal} high or critical, ${findings.length - fatal} moderate or low`);
process.exit(fatal > 0 ? 1 : 0);
