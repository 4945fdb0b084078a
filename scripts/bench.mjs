// `npm run bench`: load-test the built server on loopback with autocannon, once on embedded
// PGlite and once on PostgreSQL, and compare two API routes against the trivial liveness
// route. Results go to bench/results/<timestamp>.json and bench/results/latest.json.
// What is measured and how to read it: docs/benchmarks.md.
//
// Tunables (environment): BENCH_CONNECTIONS (default 20), BENCH_DURATION (s, default 10),
// BENCH_WARMUP (s, default 3), BENCH_MODES (default "pglite,postgres"),
// BENCH_PG_URL (maintenance connection, default postgres://postgres@127.0.0.1:5432/postgres).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { ensureBuild } from "./ensure-build.mjs";
import { openLoop } from "./open-loop.mjs";
import { seedRecords, seededCount, seededDomain, seededId } from "./bench-seed.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const HOST = "127.0.0.1";
const num = (v, d) => (v !== undefined && v !== "" && Number.isFinite(Number(v)) ? Number(v) : d);

/** Command-line options (`npm run bench -- --records 100000 --only directory,lookup`); each has an environment twin. */
function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument '${a}' (see docs/benchmarks.md)`);
    const [k, inline] = a.slice(2).split("=", 2);
    const v = inline ?? argv[++i];
    if (v === undefined) throw new Error(`--${k} needs a value`);
    if (k === "server-env") (o.serverEnv ??= []).push(v);
    else o[k] = v;
  }
  const known = ["records", "only", "modes", "db", "duration", "server-env", "fanout-records", "fanout-endpoints"];
  for (const k of Object.keys(o)) if (!known.includes(k) && k !== "serverEnv") throw new Error(`unknown option --${k} (known: ${known.join(", ")})`);
  return o;
}
const ARGS = parseArgs(process.argv.slice(2));
/** The cases, in the order they run; `--only` picks some. */
const ALL_CASES = ["routes", "lookup", "directory", "statuslist", "history", "batch", "fanout"];
/** Cases that read the seeded million-record haystack (PostgreSQL only). */
const SCALE_CASES = ["lookup", "directory", "statuslist"];
const ONLY = (ARGS.only ?? process.env.BENCH_ONLY ?? ALL_CASES.join(",")).split(",").map((s) => s.trim()).filter(Boolean);
for (const c of ONLY) if (!ALL_CASES.includes(c)) throw new Error(`unknown case '${c}' in --only (cases: ${ALL_CASES.join(", ")})`);
const runs = (c) => ONLY.includes(c);
/** Extra server environment (`--server-env NAME=VALUE`, repeatable), e.g. to size a rate limit. */
const SERVER_ENV = Object.fromEntries((ARGS.serverEnv ?? []).map((kv) => {
  const i = kv.indexOf("=");
  if (i < 1) throw new Error(`--server-env wants NAME=VALUE, not '${kv}'`);
  return [kv.slice(0, i), kv.slice(i + 1)];
}));
const CONNECTIONS = num(process.env.BENCH_CONNECTIONS, 20);
const DURATION = num(ARGS.duration ?? process.env.BENCH_DURATION, 10);
const WARMUP = num(process.env.BENCH_WARMUP, 3);
const MODES = (ARGS.modes || process.env.BENCH_MODES || "pglite,postgres").split(",").map((s) => s.trim()).filter(Boolean);
const PG_ADMIN_URL = process.env.BENCH_PG_URL || `postgres://postgres@${HOST}:5432/postgres`;
// lookup_over_live: issue 29 (0.6 with the shared anonymous limiter on every lookup), which
// replaced issue 14's 0.8 (set before lookup had a limiter).
const TARGETS = { status_over_live: 0.6, post_over_live: 0.3, lookup_over_live: 0.6 };
const LOOKUP_P99_MS = 20;
/** The steady rate (req/s) at which lookup's p99 is measured. */
const LOOKUP_PACED_RATE = num(process.env.BENCH_LOOKUP_RATE, 200);
/** Seconds of discarded warm-up at the offered rate before each held-rate measurement. */
const AT_RATE_WARMUP_S = num(process.env.BENCH_AT_RATE_WARMUP, 2);
const LOOKUP_RECORDS = num(ARGS.records ?? process.env.BENCH_RECORDS ?? process.env.BENCH_LOOKUP_RECORDS, 1_000_000);
/** A database to keep between runs (`--db NAME`): created if missing, seeded up to --records, never dropped. */
const KEEP_DB = ARGS.db ?? process.env.BENCH_DB ?? null;
if (KEEP_DB && !/^[a-z_][a-z0-9_]{0,62}$/.test(KEEP_DB)) throw new Error(`--db wants a plain lower-case database name, not '${KEEP_DB}'`);
const DIRECTORY_RATE = num(process.env.BENCH_DIRECTORY_RATE, 50);
const DIRECTORY_P99_MS = 50;
const STATUSLIST_MS = 100;
const HISTORY_ENTRIES = num(process.env.BENCH_HISTORY_ENTRIES, 10_000);
/** Fan-out size: 20 × 1,000 on PostgreSQL; 5 × 200 on PGlite (one process sends there), unless set. */
const fanoutSize = (mode) => ({
  records: num(ARGS["fanout-records"] ?? process.env.BENCH_FANOUT_RECORDS, mode === "postgres" ? 1000 : 200),
  endpoints: num(ARGS["fanout-endpoints"] ?? process.env.BENCH_FANOUT_ENDPOINTS, mode === "postgres" ? 20 : 5),
});
const NOISY_DRIFT = 0.15; // live before vs after differing by more than this marks the mode as noisy
const RECORD_BODY = { subject: "Bench Ltd", claim_type: "company_status", claim: "Bench Ltd is active.", visibility: "public" };

const log = (...a) => console.log("[bench]", ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- cleanup registry

/** Cleanup steps, run last-in first-out exactly once, on success, error or signal. */
const cleanups = [];
let cleaning;
function cleanupAll() {
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
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(sig, () => {
    console.error(`[bench] ${sig}: stopping servers and removing temporary data ...`);
    cleanupAll().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------- server

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines);
  } catch {
    return ["(no server log)"];
  }
}

/** An error that carries the end of the server's log, for the console and the results file. */
class ServerError extends Error {
  constructor(message, logFile) {
    const logTail = tail(logFile);
    const hint = logTail.find((l) => /error/i.test(l));
    super(hint ? `${message}: ${hint.trim()}` : message);
    this.logTail = logTail;
  }
}
const serverGone = (s) => s.child.exitCode !== null || s.child.signalCode !== null;

/** Stop the server's whole process group: SIGTERM, then SIGKILL after a grace period. */
async function stopServer(child) {
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

/**
 * A kept database (--db) carries a transparency log signed with the note key of the server
 * that started it, named after its base URL: the next runs must use the same key and port.
 * Both are kept in a small file beside the other temporary files.
 */
async function keptServerState(name) {
  const file = path.join(os.tmpdir(), `prs-bench-${name}.json`);
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    const state = { port: await freePort(), logNoteKey: randomBytes(32).toString("base64") };
    fs.writeFileSync(file, JSON.stringify(state));
    return state;
  }
}

async function startServer(mode, databaseUrl, extraEnv = {}) {
  const kept = KEEP_DB && databaseUrl ? await keptServerState(KEEP_DB) : null;
  const port = kept?.port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `prs-bench-${mode}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // The log lives outside DATA_DIR so a failure can be shown before the folder is removed.
  const logFile = path.join(os.tmpdir(), `prs-bench-${mode}-${process.pid}.log`);
  cleanups.push(() => fs.rmSync(logFile, { force: true }));
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
    ...extraEnv,
    ...SERVER_ENV,
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const out = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", String(port), "-H", HOST], {
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
  return { baseUrl, dataDir, logFile, child };
}

async function admin(server, argv) {
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

async function createDatabase() {
  const name = KEEP_DB ?? `prs_bench_${Date.now()}`;
  const sql = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const exists = KEEP_DB && (await sql`select 1 from pg_database where datname = ${name}`).length > 0;
    if (!exists) await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  if (!KEEP_DB) cleanups.push(async () => {
    const s = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      await s.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      log(`dropped database ${name}`);
    } finally {
      await s.end({ timeout: 5 });
    }
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/**
 * The haystack of the scale cases: LOOKUP_RECORDS live, public, active records of one account
 * (scripts/bench-seed.mjs: records, history, lookup values, status-list places), written with
 * INSERT … SELECT generate_series, not through the API. With --db, only what is missing.
 */
async function seedHaystack(url, accountId) {
  const have = await seededCount(url);
  if (have >= LOOKUP_RECORDS) {
    log(`  ${have} records already seeded in the kept database`);
    return { records: have, seconds: 0, reused: true };
  }
  const t0 = performance.now();
  const steps = await seedRecords(url, accountId, LOOKUP_RECORDS, { from: have, log });
  const seconds = round((performance.now() - t0) / 1000, 1);
  log(`  seeding ${LOOKUP_RECORDS - have} records took ${seconds} s`);
  return { records: LOOKUP_RECORDS, seeded_now: LOOKUP_RECORDS - have, seconds, steps };
}

// ---------------------------------------------------------------- load

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, pipelining: 1, timeout: 10, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const round = (x, d = 1) => (x == null || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

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
async function measure(server, label, make, { warmup = WARMUP } = {}) {
  if (warmup > 0) await cannon({ ...make(), duration: warmup });
  const loadBefore = os.loadavg()[0];
  const res = await cannon({ ...make(), duration: DURATION });
  if (serverGone(server)) throw new ServerError(`server stopped during the '${label}' run`, server.logFile);
  const s = { ...summarize(res), load_avg_1m_before: round(loadBefore, 2), load_avg_1m_after: round(os.loadavg()[0], 2) };
  log(`  ${label.padEnd(8)} ${String(s.rps_mean).padStart(8)} req/s (mean), p50 ${s.latency_ms.p50} ms, p99 ${s.latency_ms.p99} ms, non-2xx ${s.non2xx}, errors ${s.errors}`);
  return s;
}

/** A 250-row participant_attested batch, end to end over HTTP: one warm-up, then RUNS timed calls. */
async function measureBatch(url, key, runId, runs = 8) {
  const body = JSON.stringify({ records: Array.from({ length: 250 }, (_, i) => ({ ...RECORD_BODY, subject: `Batch ${i} Ltd` })) });
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const r = await fetch(`${url}/api/v1/records/batch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `batch-${runId}-${i}` },
      body,
    });
    const answer = await r.json();
    const ms = performance.now() - t0;
    if (r.status !== 200 || answer.totals?.issued !== 250) throw new Error(`batch failed: ${r.status} ${JSON.stringify(answer).slice(0, 300)}`);
    if (i > 0) times.push(ms); // the first call warms up
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return { runs, median_ms: round(median, 0), min_ms: round(times[0], 0), max_ms: round(times.at(-1), 0), target_ms: 100, pass: median < 100 };
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);

/**
 * Open loop: `rate` requests per second for `seconds`, each sent at its scheduled time whether
 * or not earlier ones have answered (no coordinated omission: a slow answer does not slow the
 * senders), over keep-alive connections opened as needed. Latency counts from the scheduled
 * time, so queueing inside the client shows too. `next(i)` gives request i's path (and
 * optionally method, headers, body).
 */
async function measureAtRate(baseUrl, { rate, seconds, next, label, warmupSeconds = AT_RATE_WARMUP_S }) {
  // Warm-up at the same rate, discarded: a held-rate target is about the steady state, and the
  // first quarter second of a burst meets a pool whose connections have not yet prepared the
  // route's statements (the first searches answered in 60–136 ms, the rest in ~14).
  if (warmupSeconds > 0) await measureAtRate(baseUrl, { rate, seconds: warmupSeconds, next, label: `${label} warm-up`, warmupSeconds: 0 });
  const u = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = Math.round(rate * seconds);
  const lat = [];
  const codes = {};
  let errors = 0;
  const errorKinds = {};
  const loadBefore = os.loadavg()[0];
  const one = (i, at) =>
    new Promise((resolve) => {
      const r = next(i);
      const req = http.request(
        { host: u.hostname, port: u.port, path: r.path ?? r, method: r.method ?? "GET", headers: r.headers ?? {}, agent, timeout: 10_000 },
        (res) => {
          res.resume();
          res.on("end", () => {
            lat.push(performance.now() - at);
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
        resolve();
      });
      req.end(r.body);
    });
  const { seconds: elapsed, late } = await openLoop(rate, seconds, one);
  agent.destroy();
  lat.sort((x, y) => x - y);
  const ok = Object.entries(codes).filter(([c]) => c >= 200 && c < 300).reduce((n, [, v]) => n + v, 0);
  const out = {
    offered_rps: rate, seconds, requests: total, achieved_rps: round(lat.length / elapsed, 1),
    latency_ms: { p50: round(pct(lat, 50), 1), p90: round(pct(lat, 90), 1), p99: round(pct(lat, 99), 1), max: round(lat.at(-1), 1) },
    status_codes: codes, non2xx: lat.length - ok, errors, error_kinds: errorKinds, sent_late_over_5ms: late,
    load_avg_1m_before: round(loadBefore, 2), load_avg_1m_after: round(os.loadavg()[0], 2),
  };
  log(`  ${label.padEnd(16)} ${rate} req/s offered for ${seconds} s: p50 ${out.latency_ms.p50} ms, p99 ${out.latency_ms.p99} ms, non-2xx ${out.non2xx}, errors ${errors}`);
  return out;
}

/** One timed GET (ms), failing on a non-2xx answer. */
async function timedGet(url) {
  const t0 = performance.now();
  const r = await fetch(url);
  await r.arrayBuffer();
  const ms = performance.now() - t0;
  if (!r.ok) throw new Error(`GET ${url} answered ${r.status}`);
  return ms;
}

/**
 * Directory search at a steady DIRECTORY_RATE req/s (open loop) over the seeded haystack:
 * each request searches another term — a company word (matches ~1/20 of the company records),
 * a whole company name of one record, or a domain — so the answer is never the same page.
 */
async function measureDirectory(url, seeded) {
  const words = ["Harbour", "Granite", "Logistics", "Robotics", "Meridian", "Textiles", "Pioneer", "Pharma"];
  const next = (i) => {
    const n = 1 + Math.floor(Math.random() * seeded);
    const q = i % 3 === 0 ? words[i % words.length] : i % 3 === 1 ? `${n} ` : seededDomain(n - (n % 2) || 2);
    return `/directory?q=${encodeURIComponent(q)}`;
  };
  // Warm-up (discarded): the page's modules load on its first request, which is not a search's cost.
  for (let i = 0; i < 9; i++) await timedGet(url + next(i));
  return measureAtRate(url, { rate: DIRECTORY_RATE, seconds: DURATION, next, label: `directory@${DIRECTORY_RATE}` });
}

/**
 * A status list's answer right after a status change: a seeded record is suspended (and, the
 * next time, reinstated) by the staff command, then its list is fetched at once, timed; 10
 * changes. The list is fetched once before (warm), so each timing is "after a change".
 */
async function measureStatusList(server, url) {
  const times = [];
  const listOf = 0; // the first seeded records sit in list 0 (status indexes from 0 in a fresh database)
  await timedGet(`${url}/api/v1/status-lists/suspension/${listOf}`);
  for (let i = 0; i < 10; i++) {
    const id = seededId(2 + 2 * i);
    for (const op of ["suspend", "reinstate"]) {
      await admin(server, ["record", op, "--id", id, "--reason", `bench ${op} ${i}`]);
      times.push(await timedGet(`${url}/api/v1/status-lists/suspension/${listOf}`));
    }
  }
  const s = [...times].sort((a, b) => a - b);
  const out = { changes: times.length, p50_ms: round(pct(s, 50), 1), max_ms: round(s.at(-1), 1), target_ms: STATUSLIST_MS };
  out.pass = out.p50_ms < STATUSLIST_MS;
  log(`  status list after a change: p50 ${out.p50_ms} ms, max ${out.max_ms} ms over ${times.length} changes; target < ${STATUSLIST_MS} ms: ${out.pass ? "PASS" : "MISSED"}`);
  return out;
}

/**
 * A certificate (/r/{id}) whose record has HISTORY_ENTRIES history entries against a fresh
 * record's: the long history is written straight into record_history (suspend/reinstate
 * pairs, ending active). 5 warm-up GETs, then 30 timed, one at a time, alternating.
 */
async function measureHistory(url, key, runId, databaseUrl) {
  const mk = async (n) => {
    const r = await fetch(`${url}/api/v1/records`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `hist-${runId}-${n}` },
      body: JSON.stringify({ ...RECORD_BODY, subject: `History ${n} Ltd` }),
    });
    const b = await r.json();
    if (r.status !== 201) throw new Error(`creating a history record failed: ${r.status}`);
    return b.verification_id;
  };
  if (!databaseUrl) return { skipped: "needs PostgreSQL (the history is written straight into the database)" };
  const fresh = await mk("fresh");
  const long = await mk("long");
  {
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql`insert into record_history (record_id, status, at, reason, by)
        select ${long}, case when g % 2 = 1 then 'suspended' else 'active' end, now() - make_interval(secs => ${HISTORY_ENTRIES} - g),
               'Bench flip ' || g, 'bench' from generate_series(1, ${HISTORY_ENTRIES}::int) g`;
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
  for (let i = 0; i < 5; i++) {
    await timedGet(`${url}/r/${fresh}`);
    await timedGet(`${url}/r/${long}`);
  }
  const a = [];
  const b = [];
  for (let i = 0; i < 30; i++) {
    a.push(await timedGet(`${url}/r/${fresh}`));
    b.push(await timedGet(`${url}/r/${long}`));
  }
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  const out = {
    history_entries: HISTORY_ENTRIES, fresh_p50_ms: round(pct(a, 50), 1), long_p50_ms: round(pct(b, 50), 1),
    fresh_p99_ms: round(pct(a, 99), 1), long_p99_ms: round(pct(b, 99), 1),
  };
  out.ratio = round(out.long_p50_ms / out.fresh_p50_ms, 2);
  out.target_ratio = 1.5;
  out.pass = out.ratio <= 1.5;
  log(`  certificate: fresh p50 ${out.fresh_p50_ms} ms, with ${HISTORY_ENTRIES} history entries p50 ${out.long_p50_ms} ms = ${out.ratio}x; target <= 1.5x: ${out.pass ? "PASS" : "MISSED"}`);
  return out;
}

/** `npm run worker` processes (PostgreSQL), each in its own process group; stopped by the returned function. */
async function startWorkers(n, databaseUrl, server) {
  const procs = [];
  for (let i = 0; i < n; i++) {
    const logFile = path.join(os.tmpdir(), `prs-bench-worker-${process.pid}-${i}.log`);
    const out = fs.openSync(logFile, "w");
    const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "scripts", "worker.ts")], {
      cwd: root,
      // The server's DATA_DIR: its signing-keys file, so the workers sign with the server's keys.
      env: {
        ...process.env, ...SERVER_ENV, DATABASE_URL: databaseUrl, DATA_DIR: server.dataDir, PUBLIC_BASE_URL: server.baseUrl,
        WEBHOOK_ALLOW_INSECURE: "1", NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", out, out],
      detached: true,
    });
    fs.closeSync(out);
    procs.push({ child, logFile });
  }
  const stop = async () => {
    await Promise.all(procs.map((p) => stopServer(p.child)));
    for (const p of procs) fs.rmSync(p.logFile, { force: true });
  };
  cleanups.push(stop);
  // Ready when each has logged that it runs.
  const deadline = Date.now() + 60_000;
  while (!procs.every((p) => /webhook worker running/.test(fs.readFileSync(p.logFile, "utf8")))) {
    const dead = procs.find((p) => p.child.exitCode !== null);
    if (dead) throw new Error(`a webhook worker exited: ${tail(dead.logFile, 5).join(" | ")}`);
    if (Date.now() > deadline) throw new Error("webhook workers not running after 60 s");
    await sleep(200);
  }
  return { stop, count: n };
}

/**
 * Webhook fan-out: `endpoints` endpoints on a loopback receiver (one path each), `records`
 * records issued in 250-row batches (each issues one record.issued event per record), timed
 * from the first batch until every delivery (endpoints × records) has arrived. Includes the
 * creates, the outbox fan-out, the claims, the signed POSTs and the recorded outcomes. On
 * PostgreSQL the sends are done by two `npm run worker` processes (the server's own worker is
 * off); on PGlite by the server's worker. Duplicates (same endpoint, same webhook-id) are counted.
 */
async function measureFanout(url, key, runId, { endpoints, records, workers = null }) {
  const seen = new Set();
  let duplicates = 0;
  const arrivals = [];
  let others = 0;
  const rx = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      res.writeHead(204).end();
      // Only this case's records count: events of earlier cases not yet fanned out when the
      // endpoints were registered (the server's worker may lag behind on PGlite) go to them too.
      let subject = "";
      try {
        subject = JSON.parse(Buffer.concat(chunks).toString("utf8"))?.data?.record?.subject ?? "";
      } catch { /* not ours */ }
      if (!subject.startsWith(`Fanout ${runId} `)) return void others++;
      const k = `${req.url} ${req.headers["webhook-id"]}`;
      if (seen.has(k)) duplicates++;
      else arrivals.push(performance.now());
      seen.add(k);
    });
  });
  rx.keepAliveTimeout = 30_000;
  await new Promise((r) => rx.listen(0, HOST, r));
  const rxBase = `http://${HOST}:${rx.address().port}`;
  try {
    const api = (p, init) =>
      fetch(`${url}${p}`, { ...init, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...init.headers } });
    for (let i = 0; i < endpoints; i++) {
      const r = await api("/api/v1/webhooks", { method: "POST", body: JSON.stringify({ url: `${rxBase}/e${i}`, events: ["record.issued"] }), headers: {} });
      if (r.status !== 201) throw new Error(`registering a webhook failed: ${r.status} ${await r.text()}`);
    }
    const t0 = performance.now();
    for (let b = 0; b * 250 < records; b++) {
      const n = Math.min(250, records - b * 250);
      const body = JSON.stringify({ records: Array.from({ length: n }, (_, i) => ({ ...RECORD_BODY, subject: `Fanout ${runId} ${b * 250 + i} Ltd` })) });
      const r = await api("/api/v1/records/batch", { method: "POST", body, headers: { "Idempotency-Key": `fanout-${runId}-${b}` } });
      if (r.status !== 200) throw new Error(`fan-out batch failed: ${r.status} ${(await r.text()).slice(0, 200)}`);
      await r.arrayBuffer();
    }
    const createdS = (performance.now() - t0) / 1000;
    const want = endpoints * records;
    const deadline = Date.now() + 300_000;
    while (seen.size < want && Date.now() < deadline) await sleep(20);
    await sleep(500); // a duplicate would arrive now
    const last = arrivals.at(-1) ?? performance.now();
    const seconds = (last - t0) / 1000;
    // The steady rate: from the 10th to the 90th percentile arrival (no start-up, no tail).
    const a10 = arrivals[Math.floor(arrivals.length * 0.1)];
    const a90 = arrivals[Math.floor(arrivals.length * 0.9)];
    const steady = a90 > a10 ? (Math.floor(arrivals.length * 0.9) - Math.floor(arrivals.length * 0.1)) / ((a90 - a10) / 1000) : null;
    const out = {
      endpoints, records, workers: workers ?? "the server's own", deliveries: seen.size, expected: want, duplicates, other_events_delivered: others,
      seconds: round(seconds, 2), created_in_s: round(createdS, 2), deliveries_per_s: round(seen.size / seconds, 1),
      steady_deliveries_per_s: round(steady, 1), target_per_s: 1000,
    };
    out.pass = out.deliveries === want && duplicates === 0 && out.deliveries_per_s >= 1000;
    return out;
  } finally {
    rx.closeAllConnections();
    rx.close();
  }
}

async function benchMode(mode) {
  log(`=== ${mode} ===`);
  const db = mode === "postgres" ? await createDatabase() : null;
  if (db) log(`${KEEP_DB ? "using" : "created"} database ${db.name}`);
  const started = Date.now();
  // On PostgreSQL webhooks are sent by separate `npm run worker` processes (the fan-out case
  // starts two), as a deployment with several instances runs them; on PGlite by the server.
  const server = await startServer(mode, db?.url, db ? { WEBHOOK_WORKER: "off" } : {});
  const readyS = round((Date.now() - started) / 1000, 1);
  log(`server ready on ${server.baseUrl} in ${readyS} s`);

  const runId = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
  const { sandbox_key: key, account_id: accountId } = await admin(server, ["account", "create", "--email", `bench-${runId}@example.com`]);
  const created = await fetch(`${server.baseUrl}/api/v1/records`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `bench-${runId}-seed` },
    body: JSON.stringify(RECORD_BODY),
  });
  const record = await created.json();
  if (created.status !== 201 || !record.verification_id) {
    throw new Error(`issuing the seed record failed: ${created.status} ${JSON.stringify(record)}`);
  }
  const id = record.verification_id;
  log(`seed record ${id}`);

  const url = server.baseUrl;
  const routes = {};
  const out = { noisy: false, server_ready_s: readyS, record_id: id, cases: ONLY, routes };
  const live = () => measure(server, "live", () => ({ url: `${url}/api/health/live` }));
  const needLive = runs("routes") || (db && runs("lookup"));
  if (needLive) routes.live = await live();
  if (runs("routes")) {
    routes.status = await measure(server, "status", () => ({ url: `${url}/api/v1/records/${id}/status` }));
    let seq = 0;
    const body = JSON.stringify(RECORD_BODY);
    routes.post = await measure(server, "post", () => ({
      url,
      requests: [
        {
          method: "POST",
          path: "/api/v1/records",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
          body,
          // Called before every request: a fresh Idempotency-Key each time, so no answer is a replay.
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, "Idempotency-Key": `bench-${runId}-${++seq}` } }),
        },
      ],
    }));
    // A replay would answer 200 (Idempotent-Replayed) instead of 201: every POST must have issued.
    routes.post.replayed_200 = routes.post.status_codes["200"] ?? 0;
    routes.post.issued_201 = routes.post.status_codes["201"] ?? 0;
  }
  const scale = db && SCALE_CASES.some(runs);
  let seeded = 0;
  if (scale) {
    out.seeding = await seedHaystack(db.url, accountId);
    seeded = out.seeding.records;
    log(`${seeded} live public records seeded (history, lookup values, status-list places)`);
  }
  if (db && runs("lookup")) {
    // Every request asks for another of the seeded domains (in the form a visitor pastes it), so
    // each answer is an index probe of its own.
    const pick = () => seededDomain(2 * (1 + Math.floor(Math.random() * Math.floor(seeded / 2))));
    const lookupRequests = () => ({
      url,
      requests: [{
        method: "GET",
        path: "/api/v1/lookup",
        setupRequest: (req) => ({ ...req, path: `/api/v1/lookup?q=${encodeURIComponent(`https://www.${pick()}/`)}` }),
      }],
    });
    routes.lookup = await measure(server, "lookup", lookupRequests);
    routes.lookup.seeded_records = seeded;
    // Latency at a held rate, open loop: LOOKUP_PACED_RATE req/s sent on schedule whatever the answers do.
    out.lookup_held = await measureAtRate(url, {
      rate: LOOKUP_PACED_RATE, seconds: DURATION, label: `lookup@${LOOKUP_PACED_RATE}`,
      next: () => `/api/v1/lookup?q=${encodeURIComponent(`https://www.${pick()}/`)}`,
    });
  }
  if (db && runs("directory")) out.directory = await measureDirectory(url, seeded);
  if (db && runs("statuslist")) out.status_list = await measureStatusList(server, url);
  if (runs("history")) out.certificate_history = await measureHistory(url, key, runId, db?.url);
  // The baseline is measured again at the end (already warm): the two runs bracket the others,
  // and their difference shows how much the machine drifted meanwhile.
  if (needLive) routes.live_end = await measure(server, "live-end", () => ({ url: `${url}/api/health/live` }), { warmup: 0 });

  const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
  const avg = (a, b) => (a && b ? (a + b) / 2 : null);
  const targets = {};
  if (needLive) {
    const baseline = { rps_mean: round(avg(routes.live.rps_mean, routes.live_end.rps_mean)), rps_p50: round(avg(routes.live.rps_p50, routes.live_end.rps_p50)) };
    const drift = routes.live.rps_mean ? round((routes.live_end.rps_mean - routes.live.rps_mean) / routes.live.rps_mean, 3) : null;
    out.ratios = {
      basis: "mean requests per second (autocannon requests.mean over 1 s samples); live = average of the two live runs",
      live_baseline_rps: baseline.rps_mean,
      live_drift: drift,
      ...(routes.status ? { status_over_live: ratio(routes.status.rps_mean, baseline.rps_mean), post_over_live: ratio(routes.post.rps_mean, baseline.rps_mean) } : {}),
      ...(routes.lookup ? { lookup_over_live: ratio(routes.lookup.rps_mean, baseline.rps_mean) } : {}),
    };
    const clean = (r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
    const judge = (name, route) => {
      const value = out.ratios[name];
      const target = TARGETS[name];
      const ok = value !== null && value >= target && clean(routes.live) && clean(routes.live_end) && clean(routes[route]);
      let reason = ok ? "" : value === null ? "no measurement" : value < target ? `ratio ${value} < ${target}` : "non-2xx or errors during the run";
      return { target, value, pass: ok, ...(ok ? {} : { reason }) };
    };
    if (routes.status) {
      targets.status_over_live = judge("status_over_live", "status");
      targets.post_over_live = judge("post_over_live", "post");
    }
    if (routes.lookup) targets.lookup_over_live = judge("lookup_over_live", "lookup");
    out.noisy = drift !== null && Math.abs(drift) > NOISY_DRIFT;
    if (out.noisy) log(`  WARNING: the two live runs differ by ${Math.round(drift * 100)}%: something else used the CPU; treat ${mode} figures as rough`);
  }
  const latencyTarget = (r, ms) => {
    const clean = r.non2xx === 0 && r.errors === 0;
    const ok = r.latency_ms.p99 !== null && r.latency_ms.p99 < ms && clean;
    return { target: ms, value: r.latency_ms.p99, pass: ok, ...(ok ? {} : { reason: clean ? `p99 ${r.latency_ms.p99} ms >= ${ms} ms` : "non-2xx or errors" }) };
  };
  if (out.lookup_held) targets.lookup_p99_ms = latencyTarget(out.lookup_held, LOOKUP_P99_MS);
  if (out.directory) targets.directory_p99_ms = latencyTarget(out.directory, DIRECTORY_P99_MS);
  if (out.status_list) targets.status_list_after_change_ms = { target: STATUSLIST_MS, value: out.status_list.p50_ms, pass: out.status_list.pass };
  if (out.certificate_history && !out.certificate_history.skipped) {
    targets.certificate_history_ratio = { target: 1.5, value: out.certificate_history.ratio, pass: out.certificate_history.pass };
  }
  if (runs("batch")) {
    const batch = await measureBatch(url, key, runId, 12);
    out.batch_250 = batch;
    log(`  batch      250 rows: median ${batch.median_ms} ms (min ${batch.min_ms}, max ${batch.max_ms}) over ${batch.runs} runs; target < ${batch.target_ms} ms: ${batch.pass ? "PASS" : "MISSED"}`);
    targets.batch_250_median_ms = { target: batch.target_ms, value: batch.median_ms, pass: batch.pass };
  }
  if (runs("fanout")) {
    let workers = null;
    if (db) {
      // Events raised before the endpoints exist go to no endpoint (the server's worker is off, so
      // they are still undispatched here): dispatch them to nobody, as that worker would have.
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        await sql`update events set dispatched_at = now() where dispatched_at is null`;
      } finally {
        await sql.end({ timeout: 5 });
      }
      workers = await startWorkers(2, db.url, server);
    }
    try {
      const fanout = await measureFanout(url, key, runId, { ...fanoutSize(mode), workers: workers?.count });
      out.webhook_fanout = fanout;
      log(`  fan-out    ${fanout.deliveries} deliveries to ${fanout.endpoints} endpoints in ${fanout.seconds} s = ${fanout.deliveries_per_s} deliveries/s (steady ${fanout.steady_deliveries_per_s}/s; duplicates ${fanout.duplicates}; workers: ${fanout.workers})`);
      targets.webhook_fanout_per_s = { target: 1000, value: fanout.deliveries_per_s, pass: fanout.pass };
    } finally {
      await workers?.stop();
    }
  }
  out.targets = targets;
  out.mode_total_s = round((Date.now() - started) / 1000, 1);
  return out;
}

// ---------------------------------------------------------------- report

function printTable(results) {
  const rows = [["mode", "route", "req/s mean", "req/s p50", "lat p50", "lat p99", "non2xx", "errors"]];
  for (const [mode, m] of Object.entries(results.modes)) {
    if (m.error) {
      rows.push([mode, "ERROR", "", "", "", "", "", ""]);
      continue;
    }
    for (const [route, r] of Object.entries(m.routes)) {
      rows.push([mode, route === "live_end" ? "live (end)" : route, r.rps_mean, r.rps_p50, `${r.latency_ms.p50} ms`, `${r.latency_ms.p99} ms`, r.non2xx, r.errors]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  console.log("\n" + line(rows[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows.slice(1)) console.log(line(r));

  for (const [mode, m] of Object.entries(results.modes)) if (m.error) console.log(`${mode}: ${m.error}`);

  console.log("\ntargets (ratios: mean req/s, live = average of its two runs; latencies: open loop):");
  for (const [mode, m] of Object.entries(results.modes)) {
    if (m.error) continue;
    for (const [name, t] of Object.entries(m.targets)) {
      const op = name.endsWith("_ms") ? "<" : name === "certificate_history_ratio" ? "<=" : ">=";
      console.log(`  ${mode.padEnd(8)} ${name.padEnd(28)} ${String(t.value).padStart(7)}  target ${op} ${t.target}  ${t.pass ? "PASS" : `MISSED${t.reason ? ` (${t.reason})` : ""}`}`);
    }
    if (m.noisy) console.log(`  ${mode.padEnd(8)} (noisy: live drifted ${Math.round(m.ratios.live_drift * 100)}% between its two runs)`);
  }
}

function gitInfo() {
  const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
  const head = git("rev-parse", "HEAD");
  if (head.status !== 0) return null;
  const dirty = git("status", "--porcelain", "--untracked-files=no").stdout.trim();
  return { commit: head.stdout.trim(), uncommitted_changes: dirty.length > 0 };
}

async function main() {
  ensureBuild();
  const date = new Date();
  const cpus = os.cpus();
  const results = {
    date: date.toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpu_count: cpus.length,
    cpu_model: cpus[0]?.model ?? "unknown",
    load_avg_at_start: os.loadavg().map((x) => round(x, 2)),
    git: gitInfo(),
    total_memory_gib: round(os.totalmem() / 2 ** 30, 1),
    config: {
      host: HOST,
      connections: CONNECTIONS,
      pipelining: 1,
      workers: 0,
      warmup_s: WARMUP,
      duration_s: DURATION,
      ratio_basis: "mean requests per second",
      cases: ONLY,
      seeded_records: LOOKUP_RECORDS,
      kept_database: KEEP_DB,
      open_loop: "latency targets: requests sent on a fixed schedule, latency counted from the scheduled time",
      server_env: SERVER_ENV,
      note: "autocannon runs in this process and shares the machine's cores with the server",
    },
    targets: TARGETS,
    modes: {},
  };
  log(`node ${process.version}, ${cpus.length} x ${results.cpu_model}; ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per route`);

  let failed = false;
  for (const mode of MODES) {
    if (mode !== "pglite" && mode !== "postgres") {
      results.modes[mode] = { error: `unknown mode '${mode}' (use pglite, postgres)` };
      failed = true;
      continue;
    }
    const mark = cleanups.length;
    try {
      results.modes[mode] = await benchMode(mode);
    } catch (e) {
      failed = true;
      console.error(`[bench] ${mode} failed: ${e?.stack ?? e}`);
      results.modes[mode] = { error: String(e?.message ?? e), ...(e?.logTail ? { server_log_tail: e.logTail } : {}) };
    } finally {
      // Stop this mode's server and drop its data before the next mode starts.
      const mine = cleanups.splice(mark);
      for (const step of mine.reverse()) {
        try {
          await step();
        } catch (e) {
          console.error("[bench] cleanup step failed:", e?.message ?? e);
        }
      }
    }
  }

  results.missed = [];
  for (const [mode, m] of Object.entries(results.modes)) {
    for (const [name, t] of Object.entries(m.targets ?? {})) if (!t.pass) results.missed.push(`${mode}.${name}`);
  }
  const dir = path.join(root, "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const stamp = results.date.replace(/:/g, "-"); // ISO 8601, colons swapped for portable file names
  const text = JSON.stringify(results, null, 2) + "\n";
  fs.writeFileSync(path.join(dir, `${stamp}.json`), text);
  fs.writeFileSync(path.join(dir, "latest.json"), text);

  printTable(results);
  console.log(`\nwritten: bench/results/${stamp}.json and bench/results/latest.json`);
  if (results.missed.length) console.log(`TARGETS MISSED: ${results.missed.join(", ")}`);
  else if (!failed) console.log("all targets met");
  if (failed) console.log(`RUN INCOMPLETE: ${Object.entries(results.modes).filter(([, m]) => m.error).map(([k]) => k).join(", ")} failed (see above)`);
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error("[bench] failed:", e?.stack ?? e);
} finally {
  await cleanupAll();
}
process.exit(code);
