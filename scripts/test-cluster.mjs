// `npm run test:cluster`: the multi-instance test (tests/cluster/cluster.test.ts) — three
// instances behind nginx, two webhook workers, one PostgreSQL. Not part of `npm test`;
// .ci/run runs it once. Uses DATABASE_URL's server with a fresh database of its own (created
// and dropped here), or 127.0.0.1:5432 as user postgres when DATABASE_URL is unset. Installs
// Debian's nginx with apt-get when it is missing (PRS_NGINX points elsewhere).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const NGINX = process.env.PRS_NGINX ?? "/usr/sbin/nginx";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function ensureNginx() {
  if (fs.existsSync(NGINX)) return;
  console.log(`[prs] ${NGINX} is missing; installing Debian's nginx with apt-get`);
  const asRoot = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args) => {
    const [cmd, ...rest] = [...asRoot, ...args];
    return spawnSync(cmd, rest, { stdio: "inherit", env: { ...env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
  };
  if (!run(["apt-get", "install", "-y", "--no-install-recommends", "nginx"])) {
    run(["apt-get", "update"]);
    if (!run(["apt-get", "install", "-y", "--no-install-recommends", "nginx"]) || !fs.existsSync(NGINX)) {
      console.error("[prs] could not install nginx, which the cluster test puts in front of the instances");
      process.exit(1);
    }
  }
  // The package starts a system nginx on port 80; this test runs its own.
  spawnSync("sh", ["-c", "service nginx stop >/dev/null 2>&1 || true"]);
}

const serverUrl = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const dbName = `prs_cluster_${Date.now()}_${process.pid}`;
const psql = (sql) => {
  const admin = new URL(serverUrl);
  admin.pathname = "/postgres";
  const r = spawnSync("psql", [admin.toString(), "-v", "ON_ERROR_STOP=1", "-qc", sql], { stdio: "inherit" });
  return r.status === 0;
};

ensureBuild();
ensureNginx();
if (!psql(`create database ${dbName}`)) {
  console.error(`[prs] could not create database ${dbName} on ${serverUrl.host}`);
  process.exit(1);
}
let status = 1;
try {
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  console.log(`[prs] cluster test on PostgreSQL database ${dbName}`);
  const r = spawnSync(path.join(root, "node_modules", ".bin", "vitest"), ["run", "-c", "tests/cluster/vitest.config.ts", ...process.argv.slice(2)], {
    cwd: root, stdio: "inherit", env: { ...env, DATABASE_URL: url.toString() },
  });
  status = r.status ?? 1;
} finally {
  psql(`drop database if exists ${dbName} with (force)`);
}
process.exit(status);
