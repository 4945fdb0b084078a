// `npm run test:cluster`: the multi-instance test (tests/cluster/cluster.test.ts) — three
// instances behind nginx, two webhook workers, one PostgreSQL. Not part of `npm test`;
// .ci/run runs it once. Uses DATABASE_URL's server with a fresh database of its own (created
// and dropped here), or 127.0.0.1:5432 as user postgres when DATABASE_URL is unset. Installs
// Debian's nginx with apt-get when it is missing (PRS_NGINX points elsewhere).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { ensureNginx } from "./nginx.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const serverUrl = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const dbName = `prs_cluster_${Date.now()}_${process.pid}`;
const psql = (sql) => {
  const admin = new URL(serverUrl);
  admin.pathname = "/postgres";
  const r = spawnSync("psql", [admin.toString(), "-v", "ON_ERROR_STOP=1", "-qc", sql], { stdio: "inherit" });
  return r.status === 0;
};

const started = Date.now();
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
  console.log(`[prs] stage cluster (PostgreSQL): ${((Date.now() - started) / 1000).toFixed(0)} s${status ? `, exit ${status}` : ""}`);
} finally {
  psql(`drop database if exists ${dbName} with (force)`);
}
process.exit(status);
