// Install one of Debian's packages with apt-get when the program it provides is missing (as
// root, or through `sudo -n`); refreshes the package lists when they are empty or the first
// try fails. Exits the process, saying why, when the program is still missing after that.
// Used by scripts/chromium.mjs and scripts/nginx.mjs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const LISTS = "/var/lib/apt/lists";

/** Make sure `binary` exists, installing `pkg` if not; `neededFor` ends the failure message. */
export function aptInstall(pkg, binary, neededFor) {
  if (fs.existsSync(binary)) return false;
  console.log(`[prs] ${binary} is missing; installing Debian's ${pkg} with apt-get`);
  const asRoot = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args) => {
    const [cmd, ...rest] = [...asRoot, ...args];
    return spawnSync(cmd, rest, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
  };
  const listsEmpty = !fs.existsSync(LISTS) || !fs.readdirSync(LISTS).some((f) => f.endsWith("Packages") || f.endsWith("Packages.lz4"));
  if (listsEmpty) run(["apt-get", "update"]);
  const install = () => run(["apt-get", "install", "-y", "--no-install-recommends", pkg]) && fs.existsSync(binary);
  if (!install()) {
    run(["apt-get", "update"]);
    if (!install()) {
      console.error(`[prs] could not install ${pkg}; ${neededFor}`);
      process.exit(1);
    }
  }
  return true;
}
