// `npm run bench:load`: a bounded mixed workload against the cluster of docs/operations.md —
// BENCH_LOAD_INSTANCES (3) `serve.mjs` instances behind nginx, two webhook workers, one fresh
// PostgreSQL database — for BENCH_LOAD_DURATION seconds (20) over BENCH_LOAD_CONNECTIONS
// keep-alive connections (24): 70 % signed status of one of the seeded records, 20 % lookup of
// one of the seeded domains (and, one in four, of a domain not on record), 10 % record
// creates. The bare liveness route is measured the same way through the same proxy before and
// after, as the yardstick. Report: bench/results/load-<timestamp>.json and load-latest.json
// (req/s, p50/p99 per route, status codes and errors). Everything binds to 127.0.0.1.
//
// Two measurements of the same mix: at a fixed offered rate (BENCH_LOAD_RATE, 200 req/s, open
// loop: each request is sent at its scheduled time whatever the earlier ones do, latency
// counted from that time), which gives p99 and errors at a set load; and at saturation
// (CONNECTIONS closed loops, each sending when its last answer came), which gives the most the
// cluster serves, as a ratio to the bare route.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { ensureBuild } from "./ensure-build.mjs";
import { ensureNginx, startNginx } from "./nginx.mjs";
import { openLoop } from "./open-loop.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const HOST = "127.0.0.1";
const num = (v, d, max) => Math.min(max, v !== undefined && v !== "" && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
const INSTANCES = num(process.env.BENCH_LOAD_INSTANCES, 3, 8);
const CONNECTIONS = num(process.env.BENCH_LOAD_CONNECTIONS, 24, 256);
const DURATION_S = num(process.env.BENCH_LOAD_DURATION, 20, 300);
const RATE = num(process.env.BENCH_LOAD_RATE, 200, 5000);
const BARE_S = Math.max(5, Math.round(DURATION_S / 4));
const SEEDED = num(process.env.BENCH_LOAD_RECORDS, 100_000, 2_000_000);
const PG_ADMIN_URL = process.env.BENCH_PG_URL || `postgres://postgres@${HOST}:5432/postgres`;
const MIX = { status: 0.7, lookup: 0.2, create: 0.1 };

const log = (...a) => console.log("[bench:load]", ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, d = 1) => (x == null || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

const cleanups = [];
async function cleanupAll() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (e) {
      console.error("[bench:load] cleanup step failed:", e?.message ?? e);
    }
  }
}
for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => cleanupAll().finally(() => process.exit(130)));

const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer();
  s.listen(0, HOST, () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
  s.on("error", reject);
});

/** A process in its own group, output to `logFile`; stopped as a group at cleanup. */
function spawnGroup(args, env, logFile) {
  const out = fs.openSync(logFile, "a");
  const child = spawn(args[0], args.slice(1), { cwd: root, env, stdio: ["ignore", out, out], detached: true });
  fs.closeSync(out);
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    try { process.kill(-child.pid, "SIGTERM"); } catch { /* gone */ }
    await Promise.race([exited, sleep(5000)]);
    try { process.kill(-child.pid, "SIGKILL"); } catch { /* gone */ }
  });
  return child;
}

async function waitHealthy(url, child, logFile) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited early:\n${fs.readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n")}`);
    try {
      if ((await fetch(`${url}/api/health/ready`)).status === 200) return;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`instance not ready after 90 s; see ${logFile}`);
    await sleep(250);
  }
}

// ---------------------------------------------------------------- load generator

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** The open loop's connections: as many as the schedule needs (a closed pool would queue requests in the client). */
const openAgent = new http.Agent({ keepAlive: true, maxSockets: 512 });

function request(port, method, p, headers, body, { from = performance.now(), via = agent } = {}) {
  return new Promise((resolve) => {
    const t0 = from;
    const req = http.request({ host: HOST, port, method, path: p, headers, agent: via }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - t0 }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - t0 }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end(body);
  });
}

function stats(samples, seconds, okStatuses) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p) => (ms.length ? round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))], 2) : null);
  const codes = {};
  for (const s of samples) codes[s.status || "connection_error"] = (codes[s.status || "connection_error"] ?? 0) + 1;
  const errors = samples.filter((s) => !okStatuses.includes(s.status)).length;
  return {
    requests: samples.length, rps: round(samples.length / seconds), latency_ms: { p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), max: pct(1) },
    status_codes: codes, errors,
  };
}

/** CONNECTIONS loops, each sending its next request when the last answer arrived, for `seconds`. */
async function drive(seconds, next) {
  const samples = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < end) {
      const { route, run } = next();
      const r = await run();
      samples.push({ route, ...r });
    }
  }));
  return samples;
}

/**
 * Open loop: `rate` requests per second for `seconds`, request i sent at t0 + i/rate whether or
 * not earlier ones have answered; each latency counts from its scheduled time (no coordinated
 * omission). `next()` as for drive, its run taking { from, via }.
 */
async function driveOpen(rate, seconds, next) {
  const samples = [];
  const run = await openLoop(rate, seconds, (_i, at) => {
    const { route, run } = next();
    return run({ from: at, via: openAgent }).then((r) => samples.push({ route, ...r }));
  });
  return { samples, ...run };
}

// ---------------------------------------------------------------- run

async function main() {
  ensureBuild();
  ensureNginx();
  const started = Date.now();
  const name = `prs_load_${Date.now()}`;
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const s = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
    await s.unsafe(`drop database if exists ${name} with (force)`);
    await s.end();
  });
  const dbUrl = new URL(PG_ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "prs-load-"));
  cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

  const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  const proxyPort = await freePort();
  const common = {
    ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: dbUrl.toString(),
    SIGNING_KEYS: JSON.stringify([{ ...jwk, kid: `load-${randomBytes(4).toString("hex")}` }]),
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"), LOG_NOTE_KEY: randomBytes(32).toString("base64"), TRUST_PROXY: "1", WEBHOOK_WORKER: "off",
    PUBLIC_BASE_URL: `http://${HOST}:${proxyPort}`, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    // The lookup is measured, not its limiter's refusals (the limiter still counts every request).
    LOOKUP_RATE_LIMIT_PER_MINUTE: "1000000",
    RECORD_READ_RATE_LIMIT_PER_MINUTE: "10000000",
    DIRECTORY_RATE_LIMIT_PER_MINUTE: "10000000",
    LOG_RATE_LIMIT_PER_MINUTE: "10000000",
    PUBLIC_RATE_LIMIT_PER_MINUTE: "10000000",
  };
  const instances = [];
  for (let i = 0; i < INSTANCES; i++) {
    const port = await freePort();
    const dataDir = path.join(work, `instance-${i}`);
    fs.mkdirSync(dataDir);
    const logFile = path.join(work, `instance-${i}.log`);
    const child = spawnGroup([process.execPath, path.join(root, "scripts", "serve.mjs"), "-p", String(port), "-H", HOST], { ...common, PORT: String(port), DATA_DIR: dataDir }, logFile);
    await waitHealthy(`http://${HOST}:${port}`, child, logFile);
    instances.push({ port, dataDir, logFile });
  }
  for (let i = 0; i < 2; i++) {
    spawnGroup([path.join(root, "node_modules", ".bin", "tsx"), path.join(root, "scripts", "worker.ts")], { ...common, DATA_DIR: path.join(work, `worker-${i}`) }, path.join(work, `worker-${i}.log`));
  }
  const proxy = await startNginx(path.join(work, "nginx"), proxyPort, instances.map((x) => x.port));
  cleanups.push(() => proxy.stop());
  log(`${INSTANCES} instances, 2 workers, nginx on ${proxy.baseUrl}, database ${name}; ready in ${round((Date.now() - started) / 1000)} s`);

  // An account with a sandbox key; records to read the status of; a haystack for the lookup.
  const { token, adminPort } = JSON.parse(fs.readFileSync(path.join(instances[0].dataDir, "server.json"), "utf8"));
  const adminCall = async (argv) => {
    const r = await fetch(`http://127.0.0.1:${adminPort}/api/internal/admin`, {
      method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ argv }),
    });
    const b = await r.json();
    if (!b.ok) throw new Error(`admin ${argv.join(" ")}: ${JSON.stringify(b)}`);
    return b.result;
  };
  const { sandbox_key: key, account_id: accountId } = await adminCall(["account", "create", "--email", `load-${Date.now()}@example.com`]);
  const batch = await fetch(`${proxy.baseUrl}/api/v1/records/batch`, {
    method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `load-seed-${Date.now()}` },
    body: JSON.stringify({ records: Array.from({ length: 250 }, (_, i) => ({ subject: `Load ${i} Ltd`, claim_type: "company_status", claim: `Load ${i} Ltd is active.` })) }),
  });
  const statusIds = (await batch.json()).results.map((r) => r.verification_id);
  const sql = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  await sql`
    insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public,
                         status, status_changed_at, issued_at, valid_from, expires_at, created_at)
    select 'PRS-L' || lpad(g::text, 19, '0'), ${accountId}, 'live', 'domain_ownership', 'load-' || g || '.example.com',
           'Controls load-' || g || '.example.com.', 'source_verified', 'public', '{}'::jsonb, 'active', now(), now(), now(),
           now() + interval '1 year', now()
    from generate_series(1, ${SEEDED}::int) g`;
  await sql`
    insert into record_values (record_id, kind, value, field)
    select 'PRS-L' || lpad(g::text, 19, '0'), 'website', 'load-' || g || '.example.com', 'subject' from generate_series(1, ${SEEDED}::int) g`;
  await sql`analyze records`;
  await sql`analyze record_values`;
  await sql.end();
  log(`seeded ${statusIds.length} records to read and ${SEEDED} live domain records to look up`);

  const port = proxyPort;
  const pick = (a) => a[Math.floor(Math.random() * a.length)];
  const bare = () => ({ route: "live", run: (o) => request(port, "GET", "/api/health/live", {}, undefined, o) });
  const runId = randomBytes(4).toString("hex");
  let seq = 0;
  const createBody = JSON.stringify({ subject: "Load Ltd", claim_type: "company_status", claim: "Load Ltd is active." });
  const mixed = () => {
    const x = Math.random();
    if (x < MIX.status) return { route: "status", run: (o) => request(port, "GET", `/api/v1/records/${pick(statusIds)}/status`, {}, undefined, o) };
    if (x < MIX.status + MIX.lookup) {
      const q = Math.random() < 0.75 ? `https://www.load-${1 + Math.floor(Math.random() * SEEDED)}.example.com/` : `unknown-${Math.random().toString(36).slice(2)}.example.org`;
      return { route: "lookup", run: (o) => request(port, "GET", `/api/v1/lookup?q=${encodeURIComponent(q)}`, {}, undefined, o) };
    }
    return {
      route: "create",
      run: (o) => request(port, "POST", "/api/v1/records", {
        Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `load-${runId}-${++seq}`, "Content-Length": Buffer.byteLength(createBody),
      }, createBody, o),
    };
  };

  await drive(3, mixed); // warm-up: every route compiled and cached on every instance
  log(`mixed workload at a fixed ${RATE} req/s (open loop) for ${DURATION_S} s ...`);
  const held = await driveOpen(RATE, DURATION_S, mixed);
  log(`bare route (liveness) ${BARE_S} s ...`);
  const bareBefore = await drive(BARE_S, bare);
  log(`mixed workload ${DURATION_S} s over ${CONNECTIONS} connections ...`);
  const t0 = performance.now();
  const samples = await drive(DURATION_S, mixed);
  const seconds = (performance.now() - t0) / 1000;
  const bareAfter = await drive(BARE_S, bare);

  const ok = { status: [200], lookup: [200], create: [201], live: [200] };
  const routes = {};
  for (const route of Object.keys(MIX)) routes[route] = stats(samples.filter((s) => s.route === route), seconds, ok[route]);
  const all = stats(samples, seconds, [200, 201]);
  all.errors = Object.values(routes).reduce((n, r) => n + r.errors, 0);
  const bareStats = stats([...bareBefore, ...bareAfter], 2 * BARE_S, ok.live);
  const heldRoutes = {};
  for (const route of Object.keys(MIX)) heldRoutes[route] = stats(held.samples.filter((s) => s.route === route), held.seconds, ok[route]);
  const heldAll = stats(held.samples, held.seconds, [200, 201]);
  heldAll.errors = Object.values(heldRoutes).reduce((n, r) => n + r.errors, 0);
  const results = {
    date: new Date().toISOString(), node: process.version, cpu_count: os.cpus().length, cpu_model: os.cpus()[0]?.model ?? "unknown",
    git: (() => { const r = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }); return r.status === 0 ? r.stdout.trim() : null; })(),
    config: {
      instances: INSTANCES, webhook_workers: 2, proxy: "nginx (round robin, keep-alive upstream)", database: "PostgreSQL, fresh database",
      connections: CONNECTIONS, duration_s: DURATION_S, bare_route_s: 2 * BARE_S, mix: MIX, seeded_status_records: statusIds.length,
      seeded_lookup_records: SEEDED, log_level: common.LOG_LEVEL,
      note: "the load generator runs in this process on the same machine as the cluster; every request goes through nginx",
    },
    bare_route: { path: "/api/health/live", before_rps: stats(bareBefore, BARE_S, ok.live).rps, after_rps: stats(bareAfter, BARE_S, ok.live).rps, ...bareStats },
    held_rate: {
      offered_rps: RATE, seconds: round(held.seconds, 1), sent_late_over_5ms: held.late,
      note: "open loop: requests sent on schedule whatever the answers do; latency counted from the scheduled time",
      targets: { p99_ms: 100, errors: 0 }, pass: heldAll.latency_ms.p99 !== null && heldAll.latency_ms.p99 < 100 && heldAll.errors === 0,
      ...heldAll, routes: heldRoutes,
    },
    mixed: { ...all, ratio_to_bare: round(all.rps / bareStats.rps, 3), note: "saturation: closed loops over the connections" },
    routes,
  };
  const dir = path.join(root, "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const stamp = results.date.replace(/:/g, "-");
  fs.writeFileSync(path.join(dir, `load-${stamp}.json`), JSON.stringify(results, null, 2) + "\n");
  fs.writeFileSync(path.join(dir, "load-latest.json"), JSON.stringify(results, null, 2) + "\n");

  const line = (name, r) => `${name.padEnd(8)} ${String(r.requests).padStart(7)} req ${String(r.rps).padStart(8)} req/s  p50 ${String(r.latency_ms.p50).padStart(7)} ms  p99 ${String(r.latency_ms.p99).padStart(7)} ms  errors ${r.errors}`;
  console.log(`\nat a fixed ${RATE} req/s (open loop): p99 ${heldAll.latency_ms.p99} ms, errors ${heldAll.errors}; target p99 < 100 ms and 0 errors: ${results.held_rate.pass ? "PASS" : "MISSED"}`);
  console.log(line("held", heldAll));
  for (const [k, r] of Object.entries(heldRoutes)) console.log(line(k, r) + `  ${JSON.stringify(r.status_codes)}`);
  console.log("\nat saturation (closed loops):");
  console.log(line("live", bareStats));
  console.log(line("mixed", all) + `  (${results.mixed.ratio_to_bare} of bare)`);
  for (const [k, r] of Object.entries(routes)) console.log(line(k, r) + `  ${JSON.stringify(r.status_codes)}`);
  console.log(`\nwritten: bench/results/load-${stamp}.json and bench/results/load-latest.json`);
  // A 5xx is a bug, whatever the load: show what the instances logged as errors (JSON lines, level ≥ 50).
  const fiveXX = [...Object.values(heldRoutes), ...Object.values(routes)].some((r) => Object.keys(r.status_codes).some((c) => c.startsWith("5")));
  if (fiveXX) {
    for (const x of instances) {
      const errors = fs.readFileSync(x.logFile, "utf8").split("\n").filter((l) => /"level":(50|60)/.test(l));
      console.log(`\n${path.basename(x.logFile)}: ${errors.length} error lines; the last 5:`);
      for (const l of errors.slice(-5)) console.log(`  ${l.slice(0, 1500)}`);
    }
  }
  return all.errors === 0 && heldAll.errors === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error("[bench:load] failed:", e?.stack ?? e);
} finally {
  agent.destroy();
  openAgent.destroy();
  await cleanupAll();
}
process.exit(code);
