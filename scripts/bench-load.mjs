// `npm run bench:load`: a bounded mixed workload against the cluster of docs/operations.md —
// `--instances` (3) `serve.mjs` instances behind nginx, two webhook workers, one PostgreSQL
// database — over keep-alive connections: 70 % signed status of one of 250 records made for the
// run, 20 % lookup of one of the seeded domains (and, one in four, of a domain not on record),
// 10 % record creates. The database is a fresh one, or a kept one (`--db NAME`, as
// `npm run bench -- --db`), seeded with `--records` live records by scripts/bench-seed.mjs.
// Report: bench/results/load-<timestamp>.json and load-latest.json. Everything binds to
// 127.0.0.1. docs/benchmarks.md, "Load on a cluster", describes it.
//
// Each run (`--runs N` repeats them on the same cluster and database):
//  1. a discarded closed-loop warm-up of the mix (every route compiled and cached everywhere);
//  2. the bare liveness route at saturation (closed loops over the connections, through nginx):
//     the yardstick. The first run's figure sets a rate given as a fraction (`--rate 0.26x`);
//  3. the bare route at the held rate (open loop), then the mix at the same rate: each request
//     sent at its scheduled time whatever the earlier ones do, latency counted from that time,
//     after a discarded warm-up at that rate. The mix's p99 is judged absolutely (< 100 ms at
//     200 req/s on the reference machine) and as a ratio to the bare route's p99 at that rate;
//  4. the mix at saturation (closed loops), as a ratio to the bare route;
//  5. the bare route at saturation again (drift).
// Requests slower than `--slow-ms` (500) in the held phases are listed with their route and
// time, and what the machine, PostgreSQL and the instances did meanwhile (scripts/bench-watch.mjs).
import { spawn } from "node:child_process";
import { randomBytes, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { ensureNginx, startNginx } from "./nginx.mjs";
import { openLoop } from "./open-loop.mjs";
import { seedRecords, seededCount, seededDomain, settleSeeded } from "./bench-seed.mjs";
import {
  checkDbName, freePort, gitInfo, keptServerState, median, openBenchDatabase, parseArgs, pgSettings, printSummary, rateLabel,
  rateSpec, resolveRate, round, runsOption, summarizeRuns, warmUntilSteady,
} from "./bench-common.mjs";
import { cpuLabel, cpuSummary, printSlow, slowReport, startWatch } from "./bench-watch.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const HOST = "127.0.0.1";
const ARGS = parseArgs(process.argv.slice(2), ["records", "db", "duration", "rate", "runs", "instances", "connections", "slow-ms", "warmup"]);
const num = (v, d, max) => Math.min(max, v !== undefined && v !== "" && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);
const INSTANCES = num(ARGS.instances ?? process.env.BENCH_LOAD_INSTANCES, 3, 8);
const CONNECTIONS = num(ARGS.connections ?? process.env.BENCH_LOAD_CONNECTIONS, 24, 256);
const DURATION_S = num(ARGS.duration ?? process.env.BENCH_LOAD_DURATION, 20, 300);
const RATE = rateSpec(ARGS.rate ?? process.env.BENCH_LOAD_RATE, "200", "--rate");
const RUNS = runsOption(ARGS.runs ?? process.env.BENCH_LOAD_RUNS);
const BARE_S = Math.max(5, Math.round(DURATION_S / 4));
const SEEDED = num(ARGS.records ?? process.env.BENCH_LOAD_RECORDS, 100_000, 2_000_000);
const KEEP_DB = checkDbName(ARGS.db ?? process.env.BENCH_LOAD_DB ?? null);
const SLOW_MS = num(ARGS["slow-ms"] ?? process.env.BENCH_SLOW_MS, 500, 60_000);
/**
 * Warm-up before the first run (discarded; closed loops of the mix with the bare route among it):
 * at least `--warmup` seconds (30), then on until the CPU per request stops falling, at most
 * BENCH_LOAD_WARMUP_MAX (120). Fresh instances spend far more CPU per request than in their
 * steady state for their first thousands of requests (V8 compiling the hot paths, each
 * statement's first use on each connection): measured on 2026-11-28 on a quiet moment of the
 * 2-core Intel machine, after the old 3 s warm-up the bare route took 3.9 ms of CPU per request
 * and saturated at 497 req/s; in the next run 2.0 ms and 934 req/s; the warm-up's 5 s slices cost
 * 9.9, 6.2, 4.8, 4.2, 3.4, 3.5 ms per request. The old 3 s warm-up left the first held phase (and
 * the yardstick) in that window. Later runs warm up for 3 s.
 */
const FIRST_WARMUP_S = num(ARGS.warmup ?? process.env.BENCH_LOAD_WARMUP, 30, 600);
const FIRST_WARMUP_MAX_S = Math.max(FIRST_WARMUP_S, num(process.env.BENCH_LOAD_WARMUP_MAX, 120, 1200));
/** Seconds of discarded warm-up at the held rate before each held phase (as in `npm run bench`). */
const AT_RATE_WARMUP_S = Number.isFinite(Number(process.env.BENCH_AT_RATE_WARMUP)) && process.env.BENCH_AT_RATE_WARMUP !== "" ? Number(process.env.BENCH_AT_RATE_WARMUP) : 2;
const PG_ADMIN_URL = process.env.BENCH_PG_URL || `postgres://postgres@${HOST}:5432/postgres`;
const MIX = { status: 0.7, lookup: 0.2, create: 0.1 };
/**
 * The targets, both ways. Absolute: p99 < 100 ms and no error at 200 req/s, set on the
 * reference machine (2 × AMD EPYC vCPU, bare route ≈ 776 req/s through nginx, so ≈ 0.26 of
 * it). Ratio: the mix's p99 over the bare route's p99 at the same rate in the same run —
 * PROVISIONAL: 100 ms ÷ the bare p99 measured in small runs on the 2-core Intel machine on
 * 2026-11-28 (4.3–7.1 ms at 175 req/s; 5 ms taken), not on the reference machine. Each run
 * prints the ratio the absolute target implies on its machine (100 ms ÷ the bare p99 it
 * measured); the reference machine's three-run median of that replaces it (docs/benchmarks.md).
 * BENCH_LOAD_P99_RATIO sets it meanwhile.
 */
const TARGET = {
  p99_ms: 100, at_rps: 200, bare_p99_ms_basis: 5,
  p99_over_bare: num(process.env.BENCH_LOAD_P99_RATIO, 20, 1e6), ratio_provisional: !process.env.BENCH_LOAD_P99_RATIO,
  reference_machine: "2 × AMD EPYC vCPU, bare route 776 req/s through nginx (bench/results/load-2026-11-26T16-01-26.305Z.json)",
};

const log = (...a) => console.log("[bench:load]", ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

/** One request; its latency from `from`; the instance that answered and its time, from nginx's headers. */
function request(port, method, p, headers, body, { from = performance.now(), via = agent } = {}) {
  return new Promise((resolve) => {
    const t0 = from;
    const req = http.request({ host: HOST, port, method, path: p, headers, agent: via }, (res) => {
      const upstream = res.headers["x-upstream"];
      const upstreamS = Number(res.headers["x-upstream-header-time"]);
      res.resume();
      res.on("end", () => resolve({
        status: res.statusCode, ms: performance.now() - t0,
        ...(upstream ? { upstream, upstream_ms: Number.isFinite(upstreamS) ? upstreamS * 1000 : null } : {}),
      }));
      res.on("error", () => resolve({ status: 0, ms: performance.now() - t0 }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end(body);
  });
}

const pctOf = (sorted, p) => (sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))], 2) : null);

function stats(samples, seconds, okStatuses) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const codes = {};
  for (const s of samples) codes[s.status || "connection_error"] = (codes[s.status || "connection_error"] ?? 0) + 1;
  const errors = samples.filter((s) => !okStatuses.includes(s.status)).length;
  const ups = samples.map((s) => s.upstream_ms).filter((x) => typeof x === "number").sort((a, b) => a - b);
  return {
    requests: samples.length, rps: round(samples.length / seconds), latency_ms: { p50: pctOf(ms, 0.5), p90: pctOf(ms, 0.9), p99: pctOf(ms, 0.99), max: pctOf(ms, 1) },
    // nginx's wait for the instance's response headers: the part of the latency spent in the instances.
    ...(ups.length ? { in_instances_ms: { p50: pctOf(ups, 0.5), p99: pctOf(ups, 0.99), max: pctOf(ups, 1) } } : {}),
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
 * omission). `next()` as for drive, its run taking { from, via }. Each sample keeps its
 * scheduled time and how late it was sent (the generator falling behind).
 */
async function driveOpen(rate, seconds, next) {
  const samples = [];
  const run = await openLoop(rate, seconds, (_i, at) => {
    const late = performance.now() - at;
    const { route, run } = next();
    return run({ from: at, via: openAgent }).then((r) => samples.push({ route, at, late_ms: late, ...r }));
  });
  return { samples, ...run };
}

// ---------------------------------------------------------------- run

async function main() {
  ensureBuild();
  ensureNginx();
  const started = Date.now();
  const date = new Date();
  const db = await openBenchDatabase(PG_ADMIN_URL, { keep: KEEP_DB, prefix: "prs_load" });
  cleanups.push(db.drop);
  const name = db.name;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "prs-load-"));
  cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

  // A kept database's transparency log is named after its base URL and signed with its note
  // key: the same port and key as `npm run bench -- --db` with that database.
  const kept = KEEP_DB ? await keptServerState(KEEP_DB) : null;
  const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" });
  const proxyPort = kept?.port ?? (await freePort());
  const common = {
    ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: db.url,
    SIGNING_KEYS: JSON.stringify([{ ...jwk, kid: `load-${randomBytes(4).toString("hex")}` }]),
    NEXTAUTH_SECRET: randomBytes(32).toString("hex"), LOG_NOTE_KEY: kept?.logNoteKey ?? randomBytes(32).toString("base64"), TRUST_PROXY: "1", WEBHOOK_WORKER: "off",
    PUBLIC_BASE_URL: `http://${HOST}:${proxyPort}`, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    // The lookup is measured, not its limiter's refusals (the limiter still counts every request).
    LOOKUP_RATE_LIMIT_PER_MINUTE: "1000000",
    RECORD_READ_RATE_LIMIT_PER_MINUTE: "10000000",
    DIRECTORY_RATE_LIMIT_PER_MINUTE: "10000000",
    LOG_RATE_LIMIT_PER_MINUTE: "10000000",
    PUBLIC_RATE_LIMIT_PER_MINUTE: "10000000",
  };
  const instances = [];
  const stallLogs = [];
  for (let i = 0; i < INSTANCES; i++) {
    const port = await freePort();
    const dataDir = path.join(work, `instance-${i}`);
    fs.mkdirSync(dataDir);
    const logFile = path.join(work, `instance-${i}.log`);
    // Each instance reports its own main-thread stalls (GC pauses, a held event loop) ≥ 50 ms.
    const stallLog = path.join(work, `instance-${i}-stalls.jsonl`);
    stallLogs.push(stallLog);
    const child = spawnGroup(
      [process.execPath, "--require", path.join(root, "scripts", "stall-watch.cjs"), path.join(root, "scripts", "serve.mjs"), "-p", String(port), "-H", HOST],
      { ...common, PORT: String(port), DATA_DIR: dataDir, PRS_STALL_LOG: stallLog }, logFile,
    );
    await waitHealthy(`http://${HOST}:${port}`, child, logFile);
    instances.push({ port, dataDir, logFile, pid: child.pid });
  }
  for (let i = 0; i < 2; i++) {
    spawnGroup([path.join(root, "node_modules", ".bin", "tsx"), path.join(root, "scripts", "worker.ts")], { ...common, DATA_DIR: path.join(work, `worker-${i}`) }, path.join(work, `worker-${i}.log`));
  }
  const proxy = await startNginx(path.join(work, "nginx"), proxyPort, instances.map((x) => x.port), { timingHeaders: true });
  cleanups.push(() => proxy.stop());
  log(`${INSTANCES} instances (pids ${instances.map((x) => `${x.pid}:${x.port}`).join(", ")}), 2 workers, nginx on ${proxy.baseUrl}, ${KEEP_DB ? `kept database ${name}` : `database ${name}`}; ready in ${round((Date.now() - started) / 1000)} s`);

  // An account with a sandbox key; records to read the status of; the seeded haystack for the lookup.
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
  // The same haystack as `npm run bench` (scripts/bench-seed.mjs); with --db only what is missing.
  const have = await seededCount(db.url);
  const seedT0 = performance.now();
  let seeding;
  if (have >= SEEDED) {
    log(`${have} records already seeded in the kept database`);
    seeding = { records: have, reused: true, ...(await settleSeeded(db.url, { log })) };
  } else {
    const steps = await seedRecords(db.url, accountId, SEEDED, { from: have, log });
    seeding = { records: SEEDED, seeded_now: SEEDED - have, seconds: round((performance.now() - seedT0) / 1000, 1), steps };
    log(`seeding ${SEEDED - have} records took ${seeding.seconds} s`);
  }
  const seeded = seeding.records;
  const pgConf = await pgSettings(db.url);
  log(`${statusIds.length} records to read, ${seeded} seeded live records (${Math.floor(seeded / 2)} domains to look up); PostgreSQL ${pgConf.server_version}, autovacuum ${pgConf.autovacuum}`);

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
      // A seeded domain (even-numbered records), in the form a visitor pastes it; one in four on no record.
      const q = Math.random() < 0.75
        ? `https://www.${seededDomain(2 * (1 + Math.floor(Math.random() * Math.floor(seeded / 2))))}/`
        : `unknown-${Math.random().toString(36).slice(2)}.example.org`;
      return { route: "lookup", run: (o) => request(port, "GET", `/api/v1/lookup?q=${encodeURIComponent(q)}`, {}, undefined, o) };
    }
    return {
      route: "create",
      run: (o) => request(port, "POST", "/api/v1/records", {
        Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `load-${runId}-${++seq}`, "Content-Length": Buffer.byteLength(createBody),
      }, createBody, o),
    };
  };
  const ok = { status: [200], lookup: [200], create: [201], live: [200] };

  /** A closed-loop phase, watched: its samples and the CPU it took (and what else ran). */
  const watchedDrive = async (seconds, next) => {
    const w = startWatch({ pgUrl: db.url, stallLogs });
    const samples = await drive(seconds, next);
    const watch = await w.stop();
    return { samples, cpu: cpuSummary(watch, samples.length) };
  };
  /** A held-rate phase: a discarded warm-up at the rate, then DURATION_S measured, watched. */
  const held = async (label, rate, next, routes) => {
    if (AT_RATE_WARMUP_S > 0) await driveOpen(rate, AT_RATE_WARMUP_S, next);
    const load = os.loadavg()[0];
    const watch = startWatch({ pgUrl: db.url, stallLogs });
    const r = await driveOpen(rate, DURATION_S, next);
    const w = await watch.stop();
    const all = stats(r.samples, r.seconds, routes.flatMap((k) => ok[k]));
    const perRoute = {};
    for (const route of routes) perRoute[route] = stats(r.samples.filter((s) => s.route === route), r.seconds, ok[route]);
    all.errors = Object.values(perRoute).reduce((n, x) => n + x.errors, 0);
    const slow = slowReport(r.samples, r.t0, { slowMs: SLOW_MS, watch: w });
    return {
      offered_rps: rate, seconds: round(r.seconds, 1), warmup_s: AT_RATE_WARMUP_S, sent_late_over_5ms: r.late, cpu: cpuSummary(w, r.samples.length),
      load_avg_1m_before: round(load, 2), load_avg_1m_after: round(os.loadavg()[0], 2),
      ...all, ...(routes.length > 1 ? { routes: perRoute } : {}), slow, watch: w, label,
    };
  };

  let calibration = null;
  const runs = [];
  for (let i = 1; i <= RUNS; i++) {
    log(`--- run ${i} of ${RUNS} ---`);
    // Warm-up (discarded): every route compiled and cached on every instance; in 5 s slices whose
    // CPU per request shows whether the cluster reached its steady state.
    const warmMix = () => (Math.random() < 0.2 ? bare() : mixed());
    const warm = await warmUntilSteady(
      async (sec) => (await watchedDrive(sec, warmMix)).cpu?.cpu_ms_per_request ?? null,
      i === 1 ? { minS: FIRST_WARMUP_S, maxS: FIRST_WARMUP_MAX_S } : { minS: 3, maxS: 3 },
    );
    log(`warm-up ${warm.seconds} s of the mix and the bare route (discarded): CPU per request by 5 s slice ${warm.cpu_ms_per_request_by_5s.join(", ")} ms${i === 1 ? (warm.converged ? " (stopped falling)" : " (still falling at the limit)") : ""}`);
    log(`bare route (liveness) at saturation, ${BARE_S} s over ${CONNECTIONS} connections ...`);
    const { samples: bareBefore, cpu: bareCpu } = await watchedDrive(BARE_S, bare);
    const bareRps = stats(bareBefore, BARE_S, ok.live).rps;
    log(`bare route ${bareRps} req/s [${cpuLabel(bareCpu)}]`);
    if (bareCpu?.other_pct > 10) log(`WARNING: other work used ${bareCpu.other_pct} % of the machine's CPU while the bare route was measured: this run's figures are rough`);
    // The first run's saturation sets a rate given as a fraction; every run holds the same rate.
    calibration ??= { bare_saturation_rps: bareRps, measured_in: "run 1: the bare route through nginx, closed loops over the connections", rate: resolveRate(RATE, bareRps) };
    const rate = calibration.rate.offered_rps;
    log(`bare route ${bareRps} req/s; held rate ${rateLabel(calibration.rate)}${i > 1 ? ` (set in run 1; this run's bare route: ${bareRps} req/s = ${round(rate / bareRps, 3)})` : ""}`);
    log(`bare route at a fixed ${rate} req/s (open loop, ${AT_RATE_WARMUP_S} s warm-up discarded) for ${DURATION_S} s ...`);
    const bareHeld = await held("bare", rate, bare, ["live"]);
    printSlow("bare route, slow", bareHeld.slow, log);
    log(`mixed workload at a fixed ${rate} req/s (open loop) for ${DURATION_S} s ...`);
    const heldMix = await held("mixed", rate, mixed, Object.keys(MIX));
    printSlow("mixed workload, slow", heldMix.slow, log);
    log(`mixed workload at saturation, ${DURATION_S} s over ${CONNECTIONS} connections ...`);
    const t0 = performance.now();
    const { samples, cpu: mixedCpu } = await watchedDrive(DURATION_S, mixed);
    const seconds = (performance.now() - t0) / 1000;
    const { samples: bareAfter, cpu: bareAfterCpu } = await watchedDrive(BARE_S, bare);

    const routes = {};
    for (const route of Object.keys(MIX)) routes[route] = stats(samples.filter((s) => s.route === route), seconds, ok[route]);
    const all = stats(samples, seconds, [200, 201]);
    all.errors = Object.values(routes).reduce((n, r) => n + r.errors, 0);
    const bareStats = stats([...bareBefore, ...bareAfter], 2 * BARE_S, ok.live);
    const p99 = heldMix.latency_ms.p99;
    const ratio = p99 !== null && bareHeld.latency_ms.p99 ? round(p99 / bareHeld.latency_ms.p99, 2) : null;
    const run = {
      run: i, at: new Date().toISOString(), warmup: warm,
      bare_route: { path: "/api/health/live", saturation_rps: bareRps, after_rps: stats(bareAfter, BARE_S, ok.live).rps, cpu_start: bareCpu, cpu_end: bareAfterCpu, ...bareStats },
      rate: { ...calibration.rate, fraction_of_this_runs_bare: round(rate / bareRps, 3) },
      bare_at_rate: bareHeld,
      held_rate: {
        ...heldMix,
        note: "open loop: requests sent on schedule whatever the answers do; latency counted from the scheduled time",
        p99_over_bare: ratio,
      },
      mixed: { ...all, ratio_to_bare: round(all.rps / bareStats.rps, 3), cpu: mixedCpu, note: "saturation: closed loops over the connections" },
      routes,
    };
    run.targets = {
      p99_ms: { target: TARGET.p99_ms, value: p99, at_rps: rate, reference_rps: TARGET.at_rps, pass: p99 !== null && p99 < TARGET.p99_ms },
      p99_over_bare: {
        target: TARGET.p99_over_bare, value: ratio, bare_p99_ms: bareHeld.latency_ms.p99, provisional: TARGET.ratio_provisional, pass: ratio !== null && ratio <= TARGET.p99_over_bare,
        // What the absolute target means here: the ratio of a mix exactly at 100 ms on this machine.
        implied_by_absolute_target: bareHeld.latency_ms.p99 ? round(TARGET.p99_ms / bareHeld.latency_ms.p99, 1) : null,
      },
      errors: { target: 0, value: heldMix.errors, pass: heldMix.errors === 0 },
    };
    runs.push(run);
    printRun(run);
  }

  const figures = [
    { name: "bare route, saturation", unit: "req/s", get: (r) => r.bare_route.saturation_rps },
    { name: "bare route, saturation (end)", unit: "req/s", get: (r) => r.bare_route.after_rps },
    { name: "bare route, saturation: other work", unit: "% CPU", get: (r) => r.bare_route.cpu_start?.other_pct },
    { name: "bare route, saturation: CPU per request", unit: "ms", get: (r) => r.bare_route.cpu_start?.cpu_ms_per_request },
    { name: "bare route at the held rate, p50", unit: "ms", get: (r) => r.bare_at_rate.latency_ms.p50 },
    { name: "bare route at the held rate, p99", unit: "ms", get: (r) => r.bare_at_rate.latency_ms.p99 },
    { name: "mix at the held rate, p50", unit: "ms", get: (r) => r.held_rate.latency_ms.p50 },
    { name: "mix at the held rate, p99", unit: "ms", get: (r) => r.held_rate.latency_ms.p99 },
    { name: "mix at the held rate, p99 / bare p99", unit: "×", get: (r) => r.held_rate.p99_over_bare },
    { name: "mix at the held rate, max", unit: "ms", get: (r) => r.held_rate.latency_ms.max },
    { name: "mix at the held rate, p99 in the instances", unit: "ms", get: (r) => r.held_rate.in_instances_ms?.p99 },
    { name: "mix at the held rate, errors", unit: "", get: (r) => r.held_rate.errors },
    { name: `mix at the held rate, requests ≥ ${SLOW_MS} ms`, unit: "", get: (r) => r.held_rate.slow.slow_requests },
    ...Object.keys(MIX).map((k) => ({ name: `${k} at the held rate, p99`, unit: "ms", get: (r) => r.held_rate.routes[k].latency_ms.p99 })),
    { name: "mix at saturation", unit: "req/s", get: (r) => r.mixed.rps },
    { name: "mix at saturation / bare", unit: "×", get: (r) => r.mixed.ratio_to_bare },
    { name: "mix at saturation, p99", unit: "ms", get: (r) => r.mixed.latency_ms.p99 },
    { name: "mix at saturation: CPU per request", unit: "ms", get: (r) => r.mixed.cpu?.cpu_ms_per_request },
    { name: "mix at the held rate: CPU per request", unit: "ms", get: (r) => r.held_rate.cpu?.cpu_ms_per_request },
  ];
  const summary = summarizeRuns(runs, figures);
  const judged = (name, value, pass) => ({ ...runs[0].targets[name], value: round(value, 2), runs: runs.map((r) => r.targets[name].value), runs_passed: runs.filter((r) => r.targets[name].pass).length, pass });
  const mP99 = median(runs.map((r) => r.targets.p99_ms.value));
  const mRatio = median(runs.map((r) => r.targets.p99_over_bare.value));
  const targets = {
    // Judged on the median over the runs; errors on every run.
    p99_ms: judged("p99_ms", mP99, mP99 !== null && mP99 < TARGET.p99_ms),
    p99_over_bare: {
      ...judged("p99_over_bare", mRatio, mRatio !== null && mRatio <= TARGET.p99_over_bare),
      implied_by_absolute_target: round(median(runs.map((r) => r.targets.p99_over_bare.implied_by_absolute_target)), 1),
    },
    errors: judged("errors", runs.reduce((n, r) => n + r.held_rate.errors, 0), runs.every((r) => r.targets.errors.pass)),
  };
  const git = gitInfo(root);
  const results = {
    date: date.toISOString(), node: process.version, cpu_count: os.cpus().length, cpu_model: os.cpus()[0]?.model ?? "unknown",
    load_avg_at_start: os.loadavg().map((x) => round(x, 2)), git: git?.commit ?? null, git_uncommitted_changes: git?.uncommitted_changes ?? null,
    postgres: pgConf,
    config: {
      instances: INSTANCES, webhook_workers: 2, proxy: "nginx (round robin, keep-alive upstream)", database: KEEP_DB ? `PostgreSQL, kept database ${KEEP_DB}` : "PostgreSQL, fresh database",
      connections: CONNECTIONS, duration_s: DURATION_S, bare_route_s: 2 * BARE_S, first_warmup_s: [FIRST_WARMUP_S, FIRST_WARMUP_MAX_S], at_rate_warmup_s: AT_RATE_WARMUP_S, rate: RATE.spec, runs: RUNS, slow_ms: SLOW_MS,
      mix: MIX, seeded_status_records: statusIds.length, seeded_lookup_records: seeded, seeding, log_level: common.LOG_LEVEL,
      note: "the load generator runs in this process on the same machine as the cluster; every request goes through nginx",
    },
    calibration,
    reference: TARGET,
    targets,
    summary,
    runs,
  };
  const dir = path.join(root, "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const stamp = results.date.replace(/:/g, "-");
  fs.writeFileSync(path.join(dir, `load-${stamp}.json`), JSON.stringify(results, null, 2) + "\n");
  fs.writeFileSync(path.join(dir, "load-latest.json"), JSON.stringify(results, null, 2) + "\n");

  const bareMedian = round(median(runs.map((r) => r.bare_route.saturation_rps)));
  printSummary(`summary of ${RUNS} run(s) at ${rateLabel(calibration.rate)} (rate given as ${RATE.spec}):`, summary, { bareRps: bareMedian, commit: git?.commit, date: results.date });
  console.log(`\ntargets (median of ${RUNS} run(s); bare route ${bareMedian} req/s on this machine):`);
  const t = targets;
  console.log(`  p99 < ${TARGET.p99_ms} ms (absolute, at ${TARGET.at_rps} req/s on the reference machine; here ${calibration.rate.offered_rps} req/s = ${calibration.rate.fraction_of_bare} × bare ${calibration.bare_saturation_rps} req/s): ${t.p99_ms.value} ms ${t.p99_ms.pass ? "PASS" : "MISSED"} (${t.p99_ms.runs_passed}/${RUNS} runs)`);
  console.log(`  p99 / bare p99 at the same rate <= ${TARGET.p99_over_bare}${TARGET.ratio_provisional ? " (provisional)" : ""}; the absolute target implies ${t.p99_over_bare.implied_by_absolute_target} here: ${t.p99_over_bare.value} ${t.p99_over_bare.pass ? "PASS" : "MISSED"} (${t.p99_over_bare.runs_passed}/${RUNS} runs)`);
  console.log(`  errors at the held rate = 0: ${t.errors.value} ${t.errors.pass ? "PASS" : "MISSED"}`);
  console.log(`\nwritten: bench/results/load-${stamp}.json and bench/results/load-latest.json`);
  // A 5xx is a bug, whatever the load: show what the instances logged as errors (JSON lines, level ≥ 50).
  const fiveXX = runs.some((r) => [...Object.values(r.held_rate.routes), ...Object.values(r.routes)].some((x) => Object.keys(x.status_codes).some((c) => c.startsWith("5"))));
  if (fiveXX) {
    for (const x of instances) {
      const errors = fs.readFileSync(x.logFile, "utf8").split("\n").filter((l) => /"level":(50|60)/.test(l));
      console.log(`\n${path.basename(x.logFile)}: ${errors.length} error lines; the last 5:`);
      for (const l of errors.slice(-5)) console.log(`  ${l.slice(0, 1500)}`);
    }
  }
  const failed = runs.some((r) => r.mixed.errors > 0 || r.held_rate.errors > 0);
  return failed ? 1 : 0;
}

const line = (name, r, bare) => `${name.padEnd(8)} ${String(r.requests).padStart(7)} req ${String(r.rps).padStart(8)} req/s  p50 ${String(r.latency_ms.p50).padStart(7)} ms  p99 ${String(r.latency_ms.p99).padStart(7)} ms  errors ${r.errors}  [bare ${bare} req/s]`;

function printRun(run) {
  const b = run.bare_route.saturation_rps;
  const h = run.held_rate;
  console.log(`\nrun ${run.run}: at a fixed ${rateLabel(run.rate)} (open loop): p99 ${h.latency_ms.p99} ms (in the instances ${h.in_instances_ms?.p99 ?? "?"} ms), errors ${h.errors}; ` +
    `bare route at the same rate p99 ${run.bare_at_rate.latency_ms.p99} ms → ${h.p99_over_bare}×`);
  console.log(`  targets: p99 < ${run.targets.p99_ms.target} ms ${run.targets.p99_ms.pass ? "PASS" : "MISSED"}; p99 / bare p99 <= ${run.targets.p99_over_bare.target} ${run.targets.p99_over_bare.pass ? "PASS" : "MISSED"} (the absolute target implies ${run.targets.p99_over_bare.implied_by_absolute_target} here); 0 errors ${run.targets.errors.pass ? "PASS" : "MISSED"}`);
  console.log(line("bare@", run.bare_at_rate, b) + `  [${cpuLabel(run.bare_at_rate.cpu)}]`);
  console.log(line("held", h, b) + `  [${cpuLabel(h.cpu)}]`);
  for (const [k, r] of Object.entries(h.routes)) console.log(line(k, r, b) + `  ${JSON.stringify(r.status_codes)}`);
  console.log("at saturation (closed loops):");
  console.log(line("live", run.bare_route, b) + `  (start ${run.bare_route.saturation_rps} [${cpuLabel(run.bare_route.cpu_start)}], end ${run.bare_route.after_rps} [${cpuLabel(run.bare_route.cpu_end)}])`);
  console.log(line("mixed", run.mixed, b) + `  (${run.mixed.ratio_to_bare} of bare)  [${cpuLabel(run.mixed.cpu)}]`);
  for (const [k, r] of Object.entries(run.routes)) console.log(line(k, r, b) + `  ${JSON.stringify(r.status_codes)}`);
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
