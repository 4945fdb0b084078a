// Fails at once, with the range and the running version, when this Node.js is older than what
// the pinned dependencies need (package.json "engines.node"). Runs before `npm install` in CI
// and before `npm test` / `npm start`, so an old Node fails here, not deep inside a build.
// The range is read by semver: the project's own copy once installed, else the one inside npm.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const range = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).engines.node;

function loadSemver() {
  const tries = [
    path.join(root, "package.json"),
    // npm's own dependencies, beside node: <prefix>/lib/node_modules/npm
    path.join(path.dirname(process.execPath), "..", "lib", "node_modules", "npm", "package.json"),
  ];
  for (const from of tries) {
    try {
      return createRequire(from)("semver");
    } catch {
      /* not there: try the next */
    }
  }
  return null;
}

export function checkNode() {
  const semver = loadSemver();
  if (!semver) {
    console.warn(`[prs] cannot read the Node.js range ${range} (no semver found); carrying on with ${process.version}`);
    return;
  }
  if (!semver.satisfies(process.version, range)) {
    console.error(`[prs] Node.js ${process.version} is too old: the pinned dependencies need ${range} ` +
      `(@noble/curves and @noble/hashes 2.x, vite, entities need >= 20.19). Install Node 20.19+, 22.12+ or 24.`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) checkNode();
