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
import { measureLongHistory } from "./bench-history.mjs";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const HOST = "127.0.0.1";
const num = (v, d) => (v !== undefined && v !== "" && Number.isFinite(Number(v)) ? Number(v) : d);
const CONNECTIONS = num(process.env.BENCH_CONNECTIONS, 20);
const DURATION = num(process.env.BENCH_DURATION, 10);
const WARMUP = num(process.env.BENCH_WARMUP, 3);
const MODES = (process.env.BENCH_MODES || "pglite,postgres").split(",").map((s) => s.trim()).filter(Boolean);
const PG_ADMIN_URL = process.env.BENCH_PG_URL || `postgres://postgres@${HOST}:5432/postgres`;
const TARGETS = { status_over_live: 0.6, post_over_live: 0.3, lookup_over_live: 0.8 };
const LOOKUP_P99_MS = 20;
/** The steady rate (req/s) at which lookup's p99 is measured. */
const LOOKUP_PACED_RATE = num(process.env.BENCH_LOOKUP_RATE, 200);
const LOOKUP_RECORDS = num(process.env.BENCH_LOOKUP_RECORDS, 1_000_000);
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

async function startServer(mode, databaseUrl) {
  const port = await freePort();
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
  const name = `prs_bench_${Date.now()}`;
  const sql = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  cleanups.push(async () => {
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
 * The lookup's haystack: LOOKUP_RECORDS live, public, active domain records of one account and
 * their lookup values, written with two INSERT … SELECT generate_series statements (not through
 * the API), then analysed so the planner knows the table's size.
 */
async function seedLookupRecords(url, accountId) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const t0 = performance.now();
    await sql`
      insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public,
                           status, status_changed_at, issued_at, valid_from, expires_at, created_at)
      select 'PRS-B' || lpad(g::text, 19, '0'), ${accountId}, 'live', 'domain_ownership', 'bench-' || g || '.example.com',
             'Controls bench-' || g || '.example.com.', 'source_verified', 'public', '{}'::jsonb, 'active', now(), now(), now(),
             now() + interval '1 year', now()
      from generate_series(1, ${LOOKUP_RECORDS}::int) g`;
    await sql`
      insert into record_values (record_id, kind, value, field)
      select 'PRS-B' || lpad(g::text, 19, '0'), 'website', 'bench-' || g || '.example.com', 'subject'
      from generate_series(1, ${LOOKUP_RECORDS}::int) g`;
    await sql`analyze records`;
    await sql`analyze record_values`;
    log(`  seeding took ${round((performance.now() - t0) / 1000, 1)} s`);
    return LOOKUP_RECORDS;
  } finally {
    await sql.end({ timeout: 5 });
  }
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
  return { runs, median_ms: round(median, 0), min_ms: round(times[0], 0), max_ms: round(times.at(-1), 0), target_ms: 1500, pass: median < 1500 };
}

/**
 * Webhook fan-out: ENDPOINTS endpoints on a loopback receiver, RECORDS records issued (10 at a
 * time), timed from the first create until every delivery has arrived. Includes the
 * creates, the outbox fan-out and the signed POSTs.
 */
async function measureFanout(url, key, runId, endpoints = 5, records = 100) {
  const seen = new Set();
  let duplicates = 0;
  const rx = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const k = `${req.url} ${req.headers["webhook-id"]}`;
      if (seen.has(k)) duplicates++;
      seen.add(k);
      res.writeHead(204).end();
    });
  });
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
    let next = 0;
    const worker = async () => {
      while (next < records) {
        const n = next++;
        const r = await api("/api/v1/records", { method: "POST", body: JSON.stringify(RECORD_BODY), headers: { "Idempotency-Key": `fanout-${runId}-${n}` } });
        if (r.status !== 201) throw new Error(`fan-out create failed: ${r.status}`);
        await r.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    const createdS = (performance.now() - t0) / 1000;
    const want = endpoints * records;
    const deadline = Date.now() + 120_000;
    while (seen.size < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - t0) / 1000;
    return {
      endpoints, records, deliveries: seen.size, expected: want, duplicates,
      seconds: round(seconds, 2), created_in_s: round(createdS, 2), deliveries_per_s: round(seen.size / seconds, 1),
    };
  } finally {
    rx.closeAllConnections();
    rx.close();
  }
}

async function benchMode(mode) {
  log(`=== ${mode} ===`);
  const db = mode === "postgres" ? await createDatabase() : null;
  if (db) log(`created database ${db.name}`);
  const started = Date.now();
  const server = await startServer(mode, db?.url);
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
  routes.live = await measure(server, "live", () => ({ url: `${url}/api/health/live` }));
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
  if (db) {
    const seeded = await seedLookupRecords(db.url, accountId);
    log(`seeded ${seeded} live public domain records (and their lookup values) in the database`);
    // Every request asks for another of the seeded domains (in the form a visitor pastes it), so
    // each answer is an index probe of its own.
    const lookupRequests = () => ({
      url,
      requests: [{
        method: "GET",
        path: "/api/v1/lookup",
        setupRequest: (req) => ({ ...req, path: `/api/v1/lookup?q=${encodeURIComponent(`https://www.bench-${1 + Math.floor(Math.random() * seeded)}.example.com/`)}` }),
      }],
    });
    routes.lookup = await measure(server, "lookup", lookupRequests);
    routes.lookup.seeded_records = seeded;
    // Latency without queueing: a steady LOOKUP_PACED_RATE req/s over a few connections, well
    // below saturation, so p99 is the time of one lookup rather than the wait behind 19 others.
    routes.lookup_paced = await measure(server, "lookup@" + LOOKUP_PACED_RATE, () => ({ ...lookupRequests(), connections: 4, overallRate: LOOKUP_PACED_RATE }));
  }
  // The baseline is measured again at the end (already warm): the two runs bracket the others,
  // and their difference shows how much the machine drifted meanwhile.
  routes.live_end = await measure(server, "live-end", () => ({ url: `${url}/api/health/live` }), { warmup: 0 });

  const ratio = (a, b) => (a && b ? round(a / b, 3) : null);
  const avg = (a, b) => (a && b ? (a + b) / 2 : null);
  const baseline = { rps_mean: round(avg(routes.live.rps_mean, routes.live_end.rps_mean)), rps_p50: round(avg(routes.live.rps_p50, routes.live_end.rps_p50)) };
  const drift = routes.live.rps_mean ? round((routes.live_end.rps_mean - routes.live.rps_mean) / routes.live.rps_mean, 3) : null;
  const ratios = {
    basis: "mean requests per second (autocannon requests.mean over 1 s samples); live = average of the two live runs",
    live_baseline_rps: baseline.rps_mean,
    live_drift: drift,
    status_over_live: ratio(routes.status.rps_mean, baseline.rps_mean),
    post_over_live: ratio(routes.post.rps_mean, baseline.rps_mean),
    ...(routes.lookup ? { lookup_over_live: ratio(routes.lookup.rps_mean, baseline.rps_mean) } : {}),
    p50_basis: {
      status_over_live: ratio(routes.status.rps_p50, baseline.rps_p50),
      post_over_live: ratio(routes.post.rps_p50, baseline.rps_p50),
    },
  };
  const batch = await measureBatch(url, key, runId);
  log(`  batch      250 rows: median ${batch.median_ms} ms (min ${batch.min_ms}, max ${batch.max_ms}) over ${batch.runs} runs; target < ${batch.target_ms} ms: ${batch.pass ? "PASS" : "MISSED"}`);
  const fanout = await measureFanout(url, key, runId);
  log(`  fan-out    ${fanout.deliveries} deliveries to ${fanout.endpoints} endpoints in ${fanout.seconds} s = ${fanout.deliveries_per_s} deliveries/s (duplicates ${fanout.duplicates})`);
  let issued = 0;
  const longHistory = await measureLongHistory({
    server, databaseUrl: db?.url, log, measure: (label, make) => measure(server, label, make),
    issue: async () => {
      const r = await fetch(`${url}/api/v1/records`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": `history-${runId}-${++issued}` },
        body,
      });
      const rec = await r.json();
      if (r.status !== 201) throw new Error(`issuing a history record failed: ${r.status} ${JSON.stringify(rec).slice(0, 300)}`);
      return rec.verification_id;
    },
  });
  const clean = (r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
  const judge = (name, route) => {
    const value = ratios[name];
    const target = TARGETS[name];
    const ok = value !== null && value >= target && clean(routes.live) && clean(routes.live_end) && clean(routes[route]);
    let reason = ok ? "" : value === null ? "no measurement" : value < target ? `ratio ${value} < ${target}` : "non-2xx or errors during the run";
    return { target, value, pass: ok, ...(ok ? {} : { reason }) };
  };
  const targets = { status_over_live: judge("status_over_live", "status"), post_over_live: judge("post_over_live", "post") };
  if (routes.lookup) {
    targets.lookup_over_live = judge("lookup_over_live", "lookup");
    const p99 = routes.lookup_paced.latency_ms.p99;
    targets.lookup_p99_ms = { target: LOOKUP_P99_MS, value: p99, pass: p99 < LOOKUP_P99_MS, ...(p99 < LOOKUP_P99_MS ? {} : { reason: `p99 ${p99} ms >= ${LOOKUP_P99_MS} ms` }) };
  }
  targets.certificate_long_history_over_fresh = longHistory.target;
  const noisy = drift !== null && Math.abs(drift) > NOISY_DRIFT;
  if (noisy) log(`  WARNING: the two live runs differ by ${Math.round(drift * 100)}%: something else used the CPU; treat ${mode} figures as rough`);
  return {
    noisy,
    server_ready_s: readyS,
    mode_total_s: round((Date.now() - started) / 1000, 1),
    record_id: id,
    routes,
    batch_250: batch,
    webhook_fanout: fanout,
    certificate_long_history: longHistory,
    ratios,
    targets,
  };
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

  console.log("\nratios (mean req/s; live = average of its two runs):");
  for (const [mode, m] of Object.entries(results.modes)) {
    if (m.error) continue;
    for (const [name, t] of Object.entries(m.targets)) {
      console.log(`  ${mode.padEnd(8)} ${name.padEnd(16)} ${String(t.value).padStart(6)}  target ${name.endsWith("_ms") ? "<" : ">="} ${t.target}  ${t.pass ? "PASS" : `MISSED (${t.reason})`}`);
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
