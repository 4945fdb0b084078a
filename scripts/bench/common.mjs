// What the cases of `npm run bench` share (scripts/bench.mjs runs them; one module per case in
// this folder): the invocation's settings, the cleanup registry, the server and its database,
// the load (closed loop with autocannon, open loop at a held rate) and the judging of targets.
// What `bench` shares with `bench:load` is in scripts/bench-common.mjs.
//
// A case module exports `name`, `description` (one line), `figures` (summarised over the runs),
// `bracketed` (runs between the run's two bare-route measurements, else after them), `scale`
// (reads the seeded haystack: PostgreSQL only), `held` (its held-rate result, for the report),
// `run(ctx)` (measures and logs) and `judge(ctx)` (its targets). `ctx` is one run on one mode:
//   mode, db (null on PGlite), server, url, key (the bench account's sandbox key), id (its
//   record), runId, seeded (haystack records), watch (scripts/bench-watch.mjs options);
//   runNo, tag (this run's idempotency keys and names), cal (the held rates), bareRps (the bare
//   route's saturation req/s), and what the case fills: out (the run's results), routes (its
//   closed-loop results, out.routes), targets.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openLoop } from "../open-loop.mjs";
import { seedRecords, seededCount, settleSeeded } from "../bench-seed.mjs";
import { checkDbName, freePort, keptServerState, openBenchDatabase, rateLabel, rateSpec, round, runsOption } from "../bench-common.mjs";
import { cpuLabel, cpuSummary, printSlow, slowReport, startWatch } from "../bench-watch.mjs";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
export const HOST = "127.0.0.1";
const num = (v, d) => (v !== undefined && v !== "" && Number.isFinite(Number(v)) ? Number(v) : d);

export const log = (...a) => console.log("[bench]", ...a);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- settings

// lookup_over_live: issue 29 (0.6 with the shared anonymous limiter on every lookup), which
// replaced issue 14's 0.8 (set before lookup had a limiter).
export const TARGETS = { status_over_live: 0.6, post_over_live: 0.3, lookup_over_live: 0.6 };
/**
 * The reference machine, where the absolute latency targets were set (docs/benchmarks.md,
 * issue 29 at a million records, 2026-11-26 16:04): its bare route answered 720–780 req/s at
 * 20 connections, so lookup's 200 req/s was ≈ 0.27 and directory's 50 req/s ≈ 0.07 of it.
 */
export const REFERENCE = { machine: "2 × AMD EPYC vCPU, Node 20, PostgreSQL 15; bare route 720–780 req/s (bench/results/2026-11-26T16-04-53.521Z.json)" };
/**
 * Latency targets, both ways. Absolute (`ms`, at `rps` on the reference machine) and as a ratio
 * to the bare route measured the same way in the same run (`ratio`): its p99 at the same held
 * rate, or — for cases timed one request at a time — its median timed one GET at a time
 * between theirs. The ratio targets are PROVISIONAL: the absolute target divided by the bare
 * figure (`bare_ms_basis`) measured in small runs on the 2-core Intel machine on 2026-11-28 —
 * not on the reference machine, where it was never measured. Every run prints the ratio each
 * absolute target implies on its machine (absolute target ÷ the bare figure it measured); the
 * reference machine's three-run medians of those replace these values (docs/benchmarks.md).
 * Each can be set through its variable meanwhile.
 */
const ratioTarget = (name, ms, bareMsBasis) => ({
  value: num(process.env[name], Math.round(ms / bareMsBasis)), provisional: !process.env[name], variable: name, bare_ms_basis: bareMsBasis,
});
export const LATENCY = {
  // bare p99 at the held rate: 4.0 ms at 167 req/s (lookup), 5.6–6.1 ms at 43 req/s (directory)
  lookup: { ms: 20, rps: 200, stat: "p99", ratio: ratioTarget("BENCH_LOOKUP_P99_RATIO", 20, 4) },
  directory: { ms: 50, rps: 50, stat: "p99", ratio: ratioTarget("BENCH_DIRECTORY_P99_RATIO", 50, 5) },
  // bare median one GET at a time: 3.0–3.5 ms
  status_list: { ms: 100, stat: "p50", ratio: ratioTarget("BENCH_STATUSLIST_RATIO", 100, 3) },
  batch: { ms: 100, stat: "median", ratio: ratioTarget("BENCH_BATCH_RATIO", 100, 3) },
};
export const NOISY_DRIFT = 0.15; // live before vs after differing by more than this marks the mode as noisy
export const RECORD_BODY = { subject: "Bench Ltd", claim_type: "company_status", claim: "Bench Ltd is active.", visibility: "public" };

/** The invocation's settings, filled once by configure() before anything runs. */
export const config = {};

/**
 * The settings from the parsed command line (`args`, scripts/bench-common.mjs parseArgs) and
 * their environment twins; throws on a bad value.
 */
export function configure(args) {
  /** Extra server environment (`--server-env NAME=VALUE`, repeatable), e.g. to size a rate limit. */
  const SERVER_ENV = Object.fromEntries((args["server-env"] ?? []).map((kv) => {
    const i = kv.indexOf("=");
    if (i < 1) throw new Error(`--server-env wants NAME=VALUE, not '${kv}'`);
    return [kv.slice(0, i), kv.slice(i + 1)];
  }));
  /**
   * Load on a fresh server before run 1 (discarded): the bare route, the status route and (with
   * the haystack) a lookup, closed loop, for at least SERVER_WARMUP_S seconds and then until the
   * CPU per request stops falling (at most BENCH_SERVER_WARMUP_MAX, 90). A fresh server spends
   * far more CPU per request than in its steady state at first (V8 compiling the hot paths, each
   * statement's first use on each connection) — measured on 2026-11-28: 3.6 ms for the bare
   * route right after start against 2.5 ms half a minute later — and run 1's bare route sets the
   * held rates.
   */
  const SERVER_WARMUP_S = num(args["server-warmup"] ?? process.env.BENCH_SERVER_WARMUP, 20);
  return Object.assign(config, {
    SERVER_ENV,
    CONNECTIONS: num(process.env.BENCH_CONNECTIONS, 20),
    DURATION: num(args.duration ?? process.env.BENCH_DURATION, 10),
    WARMUP: num(process.env.BENCH_WARMUP, 3),
    SERVER_WARMUP_S,
    SERVER_WARMUP_MAX_S: Math.max(SERVER_WARMUP_S, num(process.env.BENCH_SERVER_WARMUP_MAX, 90)),
    MODES: (args.modes || process.env.BENCH_MODES || "pglite,postgres").split(",").map((s) => s.trim()).filter(Boolean),
    PG_ADMIN_URL: process.env.BENCH_PG_URL || `postgres://postgres@${HOST}:5432/postgres`,
    /** How many times the measured cases run, on the same server and seeded database. */
    RUNS: runsOption(args.runs ?? process.env.BENCH_RUNS),
    /** Held-rate requests at least this slow are listed with their time and what else ran (scripts/bench-watch.mjs). */
    SLOW_MS: num(args["slow-ms"] ?? process.env.BENCH_SLOW_MS, 500),
    /** The held rates (req/s, or a fraction of the bare route's saturation: `0.27x`). */
    LOOKUP_RATE: rateSpec(args["lookup-rate"] ?? process.env.BENCH_LOOKUP_RATE, "200", "--lookup-rate"),
    DIRECTORY_RATE: rateSpec(args["directory-rate"] ?? process.env.BENCH_DIRECTORY_RATE, "50", "--directory-rate"),
    /** Seconds of discarded warm-up at the offered rate before each held-rate measurement. */
    AT_RATE_WARMUP_S: num(process.env.BENCH_AT_RATE_WARMUP, 2),
    LOOKUP_RECORDS: num(args.records ?? process.env.BENCH_RECORDS ?? process.env.BENCH_LOOKUP_RECORDS, 1_000_000),
    /** A database to keep between runs (`--db NAME`): created if missing, seeded up to --records, never dropped. */
    KEEP_DB: checkDbName(args.db ?? process.env.BENCH_DB ?? null),
    HISTORY_ENTRIES: num(process.env.BENCH_HISTORY_ENTRIES, 10_000),
    /** Fan-out size: 20 × 1,000 on PostgreSQL; 5 × 200 on PGlite (one process sends there), unless set. */
    fanoutSize: (mode) => ({
      records: num(args["fanout-records"] ?? process.env.BENCH_FANOUT_RECORDS, mode === "postgres" ? 1000 : 200),
      endpoints: num(args["fanout-endpoints"] ?? process.env.BENCH_FANOUT_ENDPOINTS, mode === "postgres" ? 20 : 5),
    }),
  });
}

// ---------------------------------------------------------------- cleanup registry

/** Cleanup steps, run last-in first-out exactly once, on success, error or signal. */
export const cleanups = [];
let cleaning;
export function cleanupAll() {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const step = cleanups.pop();
      try {
        await step();
      } catch (e) {
        console.error("[bench] cleanup step failed:", e?.message ?? e);
      }
    }
  })();
  return cleaning;
}

// ---------------------------------------------------------------- server

export function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines);
  } catch {
    return ["(no server log)"];
  }
}

/** An error that carries the end of the server's log, for the console and the results file. */
export class ServerError extends Error {
  constructor(message, logFile) {
    const logTail = tail(logFile);
    const hint = logTail.find((l) => /error/i.test(l));
    super(hint ? `${message}: ${hint.trim()}` : message);
    this.logTail = logTail;
  }
}
export const serverGone = (s) => s.child.exitCode !== null || s.child.signalCode !== null;

/** Stop the server's whole process group: SIGTERM, then SIGKILL after a grace period. */
export async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  const killGroup = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      /* group already gone */
    }
  };
  killGroup("SIGTERM");
  const t = await Promise.race([exited.then(() => "exited"), sleep(5000).then(() => "timeout")]);
  // Anything left in the group (e.g. a forked worker) goes too.
  killGroup("SIGKILL");
  if (t === "timeout") await Promise.race([exited, sleep(2000)]);
}

export async function startServer(mode, databaseUrl, extraEnv = {}) {
  const kept = config.KEEP_DB && databaseUrl ? await keptServerState(config.KEEP_DB) : null;
  const port = kept?.port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `prs-bench-${mode}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // The log lives outside DATA_DIR so a failure can be shown before the folder is removed.
  const logFile = path.join(os.tmpdir(), `prs-bench-${mode}-${process.pid}.log`);
  cleanups.push(() => fs.rmSync(logFile, { force: true }));
  // The server reports its own main-thread stalls (GC pauses, a held event loop) ≥ 50 ms here.
  const stallLog = path.join(dataDir, "stalls.jsonl");
  const baseUrl = `http://${HOST}:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: baseUrl,
    NEXT_TELEMETRY_DISABLED: "1",
    // Webhook fan-out goes to a receiver on loopback. The worker polls at its default (1 s),
    // as in production: it runs during every measurement, like it would.
    WEBHOOK_ALLOW_INSECURE: "1",
    // The lookup run measures the route, not its limiter's refusals (the limiter still runs).
    LOOKUP_RATE_LIMIT_PER_MINUTE: "1000000",
    RECORD_READ_RATE_LIMIT_PER_MINUTE: "10000000",
    DIRECTORY_RATE_LIMIT_PER_MINUTE: "10000000",
    LOG_RATE_LIMIT_PER_MINUTE: "10000000",
    PUBLIC_RATE_LIMIT_PER_MINUTE: "10000000",
    ...(kept ? { LOG_NOTE_KEY: kept.logNoteKey } : {}),
    PRS_STALL_LOG: stallLog,
    ...extraEnv,
    ...config.SERVER_ENV,
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const out = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, ["--require", path.join(root, "scripts", "stall-watch.cjs"), path.join(root, "scripts", "serve.mjs"), "-p", String(port), "-H", HOST], {
    cwd: root,
    env,
    stdio: ["ignore", out, out],
    detached: true, // own process group, so the whole tree can be stopped
  });
  fs.closeSync(out);
  cleanups.push(() => stopServer(child));
  const deadline = Date.now() + 60_000;
  let unhealthySince = 0; // answering, but not 200: give the database 20 s, not the full minute
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new ServerError(`server (${mode}) exited early`, logFile);
    try {
      const r = await fetch(`${baseUrl}/api/health`);
      if (r.status === 200) break;
      unhealthySince ||= Date.now();
      if (Date.now() - unhealthySince > 20_000) throw new ServerError(`server (${mode}) answers /api/health with ${r.status}`, logFile);
    } catch (e) {
      if (e instanceof ServerError) throw e;
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new ServerError(`server (${mode}) not ready after 60 s`, logFile);
    await sleep(200);
  }
  return { baseUrl, dataDir, logFile, stallLog, child };
}

export async function admin(server, argv) {
  const { token, adminPort } = JSON.parse(fs.readFileSync(path.join(server.dataDir, "server.json"), "utf8"));
  const r = await fetch(`http://127.0.0.1:${adminPort}/api/internal/admin`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ argv }),
  });
  const body = await r.json();
  if (!r.ok || !body.ok) throw new Error(`admin ${argv.join(" ")} failed: ${r.status} ${JSON.stringify(body)}`);
  return body.result;
}

// ---------------------------------------------------------------- PostgreSQL

export async function createDatabase() {
  const db = await openBenchDatabase(config.PG_ADMIN_URL, { keep: config.KEEP_DB, prefix: "prs_bench" });
  if (!config.KEEP_DB) cleanups.push(async () => {
    await db.drop();
    log(`dropped database ${db.name}`);
  });
  return db;
}

/**
 * The haystack of the scale cases: LOOKUP_RECORDS (--records) live, public, active records of
 * one account (scripts/bench-seed.mjs: records, history, lookup values, status-list places),
 * written with INSERT … SELECT generate_series, not through the API. With --db, only what is
 * missing.
 */
export async function seedHaystack(url, accountId) {
  const have = await seededCount(url);
  if (have >= config.LOOKUP_RECORDS) {
    log(`  ${have} records already seeded in the kept database`);
    // Vacuumed and checkpointed unless that was done already (a database seeded before the seed did it).
    return { records: have, seconds: 0, reused: true, ...(await settleSeeded(url, { log })) };
  }
  const t0 = performance.now();
  const steps = await seedRecords(url, accountId, config.LOOKUP_RECORDS, { from: have, log });
  const seconds = round((performance.now() - t0) / 1000, 1);
  log(`  seeding ${config.LOOKUP_RECORDS - have} records took ${seconds} s`);
  return { records: config.LOOKUP_RECORDS, seeded_now: config.LOOKUP_RECORDS - have, seconds, steps };
}

// ---------------------------------------------------------------- load

export function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: config.CONNECTIONS, pipelining: 1, timeout: 10, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function summarize(res) {
  const codes = Object.fromEntries(Object.entries(res.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  return {
    rps_mean: round(res.requests.mean),
    rps_p50: round(res.requests.p50),
    rps_stddev: round(res.requests.stddev),
    latency_ms: { mean: round(res.latency.mean, 2), p50: res.latency.p50, p90: res.latency.p90, p99: res.latency.p99, max: res.latency.max },
    requests_total: res.requests.total,
    duration_s: res.duration,
    samples: res.samples,
    status_codes: codes,
    non2xx: res.non2xx,
    errors: res.errors,
    timeouts: res.timeouts,
  };
}

/** Warm up (discarded), then measure. `make` builds the autocannon options for one run. */
export async function measure(server, label, make, { warmup = config.WARMUP } = {}) {
  if (warmup > 0) await cannon({ ...make(), duration: warmup });
  const loadBefore = os.loadavg()[0];
  // The CPU the run took, split into this bench (client and server), PostgreSQL and other work.
  const watch = startWatch({ pgUrl: server.dbUrl });
  const res = await cannon({ ...make(), duration: config.DURATION });
  const cpu = cpuSummary(await watch.stop(), res.requests.total);
  if (serverGone(server)) throw new ServerError(`server stopped during the '${label}' run`, server.logFile);
  const s = { ...summarize(res), cpu, load_avg_1m_before: round(loadBefore, 2), load_avg_1m_after: round(os.loadavg()[0], 2) };
  log(`  ${label.padEnd(8)} ${String(s.rps_mean).padStart(8)} req/s (mean), p50 ${s.latency_ms.p50} ms, p99 ${s.latency_ms.p99} ms, non-2xx ${s.non2xx}, errors ${s.errors}  [${cpuLabel(cpu)}]`);
  if (cpu?.other_pct > 10) log(`  WARNING: other work used ${cpu.other_pct} % of the machine's CPU during '${label}': its figures are rough`);
  return s;
}

/** The bare route timed one GET at a time (ms each): the yardstick of cases timed one request at a time. */
export async function bareOneAtATime(url, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await timedGet(`${url}/api/health/live`));
  return out;
}

export const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);

/**
 * Open loop: `rate` requests per second for `seconds`, each sent at its scheduled time whether
 * or not earlier ones have answered (no coordinated omission: a slow answer does not slow the
 * senders), over keep-alive connections opened as needed. Latency counts from the scheduled
 * time, so queueing inside the client shows too. `next(i)` gives request i's path (and
 * optionally method, headers, body). Requests of at least SLOW_MS (--slow-ms) are listed with
 * their time and what else ran meanwhile (`watch`: { pgUrl, stallLogs } for scripts/bench-watch.mjs).
 */
export async function measureAtRate(baseUrl, { rate, seconds, next, label, route = label, warmupSeconds = config.AT_RATE_WARMUP_S, watch = null, quiet = false }) {
  // Warm-up at the same rate, discarded: a held-rate target is about the steady state, and the
  // first quarter second of a burst meets a pool whose connections have not yet prepared the
  // route's statements (the first searches answered in 60–136 ms, the rest in ~14).
  if (warmupSeconds > 0) await measureAtRate(baseUrl, { rate, seconds: warmupSeconds, next, label: `${label} warm-up`, route, warmupSeconds: 0, quiet });
  const u = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = Math.round(rate * seconds);
  const lat = [];
  const samples = [];
  const codes = {};
  let errors = 0;
  const errorKinds = {};
  const loadBefore = os.loadavg()[0];
  const watcher = watch ? startWatch(watch) : null;
  const one = (i, at) =>
    new Promise((resolve) => {
      const late = performance.now() - at;
      const r = next(i);
      const p = r.path ?? r;
      const req = http.request(
        { host: u.hostname, port: u.port, path: p, method: r.method ?? "GET", headers: r.headers ?? {}, agent, timeout: 10_000 },
        (res) => {
          res.resume();
          res.on("end", () => {
            const ms = performance.now() - at;
            lat.push(ms);
            samples.push({ at, ms, route, path: p, status: res.statusCode, late_ms: late });
            codes[res.statusCode] = (codes[res.statusCode] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (e) => {
        errors++;
        const kind = e?.code ?? e?.message ?? "error";
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
        samples.push({ at, ms: performance.now() - at, route, path: p, status: 0, late_ms: late });
        resolve();
      });
      req.end(r.body);
    });
  const { seconds: elapsed, late, t0 } = await openLoop(rate, seconds, one);
  agent.destroy();
  const w = watcher ? await watcher.stop() : null;
  lat.sort((x, y) => x - y);
  const ok = Object.entries(codes).filter(([c]) => c >= 200 && c < 300).reduce((n, [, v]) => n + v, 0);
  const out = {
    offered_rps: rate, seconds, requests: total, achieved_rps: round(lat.length / elapsed, 1),
    latency_ms: { p50: round(pct(lat, 50), 1), p90: round(pct(lat, 90), 1), p99: round(pct(lat, 99), 1), max: round(lat.at(-1), 1) },
    status_codes: codes, non2xx: lat.length - ok, errors, error_kinds: errorKinds, sent_late_over_5ms: late,
    load_avg_1m_before: round(loadBefore, 2), load_avg_1m_after: round(os.loadavg()[0], 2),
  };
  if (warmupSeconds === 0 && label.endsWith("warm-up")) {
    if (!quiet) log(`  ${label.padEnd(22)} ${rate} req/s for ${seconds} s: p50 ${out.latency_ms.p50} ms, p99 ${out.latency_ms.p99} ms (discarded)`);
    return out;
  }
  out.slow = slowReport(samples, t0, { slowMs: config.SLOW_MS, watch: w });
  if (w) {
    out.cpu = cpuSummary(w, lat.length);
    out.watch = w;
  }
  if (!quiet) log(`  ${label.padEnd(22)} ${rate} req/s offered for ${seconds} s: p50 ${out.latency_ms.p50} ms, p99 ${out.latency_ms.p99} ms, non-2xx ${out.non2xx}, errors ${errors}${out.cpu ? `  [${cpuLabel(out.cpu)}]` : ""}`);
  printSlow(`${label}, slow`, out.slow, log);
  return out;
}

/**
 * A held-rate case judged both ways: the bare liveness route is first sent at the same rate
 * (open loop, same warm-up and duration), then the case; `p99_over_bare` is the case's p99 over
 * the bare route's. `rate` is a resolved rate (bench-common resolveRate).
 */
export async function heldCase(baseUrl, { rate, label, next, watch }) {
  const tagged = `@${rate.offered_rps} (${rate.fraction_of_bare} × bare ${rate.bare_saturation_rps})`;
  const bare = await measureAtRate(baseUrl, { rate: rate.offered_rps, seconds: config.DURATION, label: `bare${tagged}`, route: "bare", next: () => "/api/health/live", watch });
  const out = await measureAtRate(baseUrl, { rate: rate.offered_rps, seconds: config.DURATION, label: `${label}${tagged}`, route: label, next, watch });
  out.rate = rate;
  out.bare_at_rate = bare;
  out.p99_over_bare = out.latency_ms.p99 !== null && bare.latency_ms.p99 ? round(out.latency_ms.p99 / bare.latency_ms.p99, 2) : null;
  log(`  ${label}: p99 ${out.latency_ms.p99} ms / bare p99 ${bare.latency_ms.p99} ms at the same rate = ${out.p99_over_bare}×  [${rateLabel(rate)}]`);
  return out;
}

/** One timed GET (ms), failing on a non-2xx answer. */
export async function timedGet(url) {
  const t0 = performance.now();
  const r = await fetch(url);
  await r.arrayBuffer();
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`GET ${url} answered ${r.status}`);
  return ms;
}

// ---------------------------------------------------------------- targets

/** a / b to 3 places, null when either is missing. */
export const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
const cleanRun = (r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
/** A held-rate result and its bare route at the same rate answered every request with a 2xx. */
export const heldClean = (r) => r.non2xx === 0 && r.errors === 0 && r.bare_at_rate.non2xx === 0 && r.bare_at_rate.errors === 0;

/** A req/s ratio over the bare route (`ctx.out.ratios[name]`) against TARGETS[name]; `route` is the case's key in `ctx.routes`. */
export function judgeRatio(ctx, name, route) {
  const { routes } = ctx;
  const value = ctx.out.ratios[name];
  const target = TARGETS[name];
  const clean = cleanRun(routes.live) && cleanRun(routes.live_end) && cleanRun(routes[route]);
  const ok = value !== null && value >= target && clean;
  const reason = ok ? "" : value === null ? "no measurement" : !clean ? "non-2xx or errors during the run" : `ratio ${value} < ${target}`;
  return { op: ">=", target, value, clean, pass: ok, ...(ok ? {} : { reason }) };
}

/**
 * A latency target both ways, into `ctx.targets`: `<name>_ms`, absolute (on the reference
 * machine), and `<name>_over_bare`, over the bare route measured alike (`spec`: a LATENCY entry).
 */
export function judgeLatency(ctx, name, spec, value, ratioValue, bareValue, { clean = true, rate = null, extra = {} } = {}) {
  const { targets, bareRps } = ctx;
  const abs = value !== null && value < spec.ms && clean;
  targets[`${name}_ms`] = {
    op: "<", target: spec.ms, value, clean, pass: abs, stat: spec.stat,
    ...(spec.rps ? { reference_rps: spec.rps, offered_rps: rate?.offered_rps, at_reference_rate: rate?.offered_rps === spec.rps } : {}),
    bare_saturation_rps: bareRps, ...extra,
    ...(abs ? {} : { reason: !clean ? "non-2xx or errors" : `${spec.stat} ${value} ms >= ${spec.ms} ms` }),
  };
  const rel = ratioValue !== null && ratioValue <= spec.ratio.value && clean;
  targets[`${name}_over_bare`] = {
    op: "<=", target: spec.ratio.value, value: ratioValue, clean, pass: rel, provisional: spec.ratio.provisional, variable: spec.ratio.variable,
    // What the absolute target means here: the ratio a case exactly at it would have on this machine.
    bare_ms: bareValue, implied_by_absolute_target: bareValue ? round(spec.ms / bareValue, 1) : null,
    ...(rate ? { offered_rps: rate.offered_rps, fraction_of_bare: rate.fraction_of_bare } : {}), bare_saturation_rps: bareRps,
    ...(rel ? {} : { reason: !clean ? "non-2xx or errors" : `ratio ${ratioValue} > ${spec.ratio.value}` }),
  };
}
