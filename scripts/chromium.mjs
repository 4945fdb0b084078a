// Debian's Chromium for the Playwright suite (never a downloaded browser): installed with
// apt-get when missing. Used by `npm test` and, before the suites run side by side, by .ci/run
// (two apt-get runs at once would fight over dpkg's lock).
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const CHROMIUM = process.env.PRS_CHROMIUM ?? "/usr/bin/chromium";

export function ensureChromium() {
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


if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
