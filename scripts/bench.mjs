// `npm run bench`: load-test the built server on loopback with autocannon, once on embedded
// PGlite and once on PostgreSQL, and compare API routes against the trivial liveness route.
// Results go to bench/results/<timestamp>.json and bench/results/latest.json.
// What is measured and how to read it: docs/benchmarks.md.
//
// Each case is a module of its own in scripts/bench/ (its name, a one-line description, `run`
// and `judge`); what they share is scripts/bench/common.mjs. This runner starts the server per
// mode, runs the cases named on the command line (`npm run bench -- lookup directory`, or
// `--only lookup,directory`; all by default) in their fixed order, and reports.
//
// Every run first measures the bare liveness route at saturation (closed loop, as the `routes`
// case does): the machine's yardstick, printed beside every figure. Held-rate cases take their
// rate as requests per second or as a fraction of that (`--lookup-rate 0.27x`), and are judged
// twice: absolutely (the targets set on the reference machine) and as a ratio to the bare
// route's p99 at the same rate in the same run. `--runs N` repeats the measured cases on the
// same server and database and summarises them (median, min–max).
//
// Tunables (environment): BENCH_CONNECTIONS (default 20), BENCH_DURATION (s, default 10),
// BENCH_WARMUP (s, default 3), BENCH_MODES (default "pglite,postgres"),
// BENCH_PG_URL (maintenance connection, default postgres://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { seededDomain } from "./bench-seed.mjs";
import {
  gitInfo, median, parseArgs, pgSettings, printSummary, rateLabel, resolveRate, round, summarizeRuns, warmUntilSteady,
} from "./bench-common.mjs";
import { cpuSummary, startWatch } from "./bench-watch.mjs";
import {
  HOST, LATENCY, NOISY_DRIFT, RECORD_BODY, REFERENCE, TARGETS, admin, cannon, cleanupAll, cleanups, config, configure, createDatabase, log,
  measure, root, seedHaystack, startServer,
} from "./bench/common.mjs";
import * as routesCase from "./bench/routes.mjs";
import * as lookupCase from "./bench/lookup.mjs";
import * as directoryCase from "./bench/directory.mjs";
import * as statuslistCase from "./bench/statuslist.mjs";
import * as historyCase from "./bench/history.mjs";
import * as batchCase from "./bench/batch.mjs";
import * as fanoutCase from "./bench/fanout.mjs";

/**
 * The cases, in the order they run; naming some on the command line picks them. A case exports
 * `name`, `description`, `figures`, `run` and `judge`, and only when they hold: `bracketed` (runs
 * between the two bare-route measurements), `scale` (needs PostgreSQL and the seeded records),
 * `held` (its held-rate phase). Left out, each is off.
 */
const CASES = [routesCase, lookupCase, directoryCase, statuslistCase, historyCase, batchCase, fanoutCase];
const ALL_CASES = CASES.map((c) => c.name);

/**
 * Command-line options (`npm run bench -- --records 100000 --only directory,lookup`), each with an
 * environment twin, and case names (`npm run bench -- directory lookup`), the same as --only.
 */
const ARGS = parseArgs(process.argv.slice(2), [
  "records", "only", "modes", "db", "duration", "server-env", "fanout-records", "fanout-endpoints", "runs", "lookup-rate", "directory-rate", "slow-ms",
  "server-warmup",
], { repeatable: ["server-env"], positional: true });
const NAMED = ARGS._.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
if (NAMED.length && ARGS.only !== undefined) throw new Error("name the cases either as arguments or with --only, not both");
const ONLY = NAMED.length ? NAMED : (ARGS.only ?? process.env.BENCH_ONLY ?? ALL_CASES.join(",")).split(",").map((s) => s.trim()).filter(Boolean);
for (const c of ONLY) {
  if (!ALL_CASES.includes(c)) {
    const list = CASES.map((k) => `  ${k.name.padEnd(10)} ${k.description}`).join("\n");
    throw new Error(`unknown case '${c}'${NAMED.length ? "" : " in --only"} (cases: ${ALL_CASES.join(", ")})\n${list}`);
  }
}
const selected = (c) => ONLY.includes(c);
configure(ARGS);

for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(sig, () => {
    console.error(`[bench] ${sig}: stopping servers and removing temporary data ...`);
    cleanupAll().finally(() => process.exit(130));
  });
}

async function benchMode(mode) {
  log(`=== ${mode} ===`);
  const db = mode === "postgres" ? await createDatabase() : null;
  if (db) log(`${config.KEEP_DB ? "using" : "created"} database ${db.name}`);
  const started = Date.now();
  // On PostgreSQL webhooks are sent by separate `npm run worker` processes (the fan-out case
  // starts two), as a deployment with several instances runs them; on PGlite by the server.
  const server = await startServer(mode, db?.url, db ? { WEBHOOK_WORKER: "off" } : {});
  server.dbUrl = db?.url ?? null; // the watch tells this database's PostgreSQL work from other databases'
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

  const out = { noisy: false, server_ready_s: readyS, record_id: id, cases: ONLY };
  let seeded = 0;
  if (db && CASES.some((c) => c.scale && selected(c.name))) {
    out.seeding = await seedHaystack(db.url, accountId);
    seeded = out.seeding.records;
    log(`${seeded} live public records seeded (history, lookup values, status-list places)`);
  }
  if (db) out.postgres = await pgSettings(db.url);
  if (config.SERVER_WARMUP_S > 0) {
    const requests = [
      { method: "GET", path: "/api/health/live" },
      { method: "GET", path: `/api/v1/records/${id}/status` },
      ...(seeded ? [{
        method: "GET", path: "/api/v1/lookup",
        setupRequest: (req) => ({ ...req, path: `/api/v1/lookup?q=${encodeURIComponent(`https://www.${seededDomain(2 * (1 + Math.floor(Math.random() * Math.floor(seeded / 2))))}/`)}` }),
      }] : []),
    ];
    const warm = await warmUntilSteady(async (sec) => {
      const watch = startWatch({ pgUrl: server.dbUrl });
      const res = await cannon({ url: server.baseUrl, requests, duration: sec });
      return cpuSummary(await watch.stop(), res.requests.total)?.cpu_ms_per_request ?? null;
    }, { minS: config.SERVER_WARMUP_S, maxS: config.SERVER_WARMUP_MAX_S });
    out.server_warmup = { ...warm, routes: requests.map((r) => r.path) };
    log(`server warm-up ${warm.seconds} s (live, status${seeded ? ", lookup" : ""}; discarded): CPU per request by 5 s slice ${warm.cpu_ms_per_request_by_5s.join(", ")} ms${warm.converged ? " (stopped falling)" : " (still falling at the limit)"}`);
  }
  const ctx = { mode, db, server, url: server.baseUrl, key, runId, id, seeded, watch: { pgUrl: db?.url ?? null, stallLogs: [server.stallLog] } };
  out.runs = [];
  for (let i = 1; i <= config.RUNS; i++) {
    if (config.RUNS > 1) log(`--- ${mode}: run ${i} of ${config.RUNS} ---`);
    const run = await benchRun(ctx, i, out.calibration);
    out.calibration ??= run.calibration;
    delete run.calibration;
    out.runs.push(run);
  }
  out.noisy = out.runs.some((r) => r.noisy);
  out.summary = summarizeRuns(out.runs, FIGURES);
  out.bare_saturation_rps_median = round(median(out.runs.map((r) => r.bare_saturation_rps)));
  // Judged on the median over the runs; a run with failed requests fails the target whatever the median.
  out.targets = {};
  for (const name of new Set(out.runs.flatMap((r) => Object.keys(r.targets)))) {
    const per = out.runs.map((r) => r.targets[name]).filter(Boolean);
    const value = round(median(per.map((t) => t.value)), 3);
    const { op, target } = per[0];
    const met = value !== null && (op === "<" ? value < target : op === "<=" ? value <= target : value >= target);
    const clean = per.every((t) => t.clean !== false);
    const implied = per.some((t) => t.implied_by_absolute_target != null) ? { implied_by_absolute_target: round(median(per.map((t) => t.implied_by_absolute_target)), 1) } : {};
    out.targets[name] = {
      ...per[0], value, runs: per.map((t) => t.value), runs_passed: per.filter((t) => t.pass).length, pass: met && clean, ...implied,
      ...(met && clean ? { reason: undefined } : { reason: !clean ? "non-2xx or errors in a run" : `median ${value} not ${op} ${target}` }),
    };
  }
  out.mode_total_s = round((Date.now() - started) / 1000, 1);
  return out;
}

/** The figures summarised over the runs (median, min–max), per mode: the bare route's, then each case's. */
const FIGURES = [
  { name: "bare route, saturation (start)", unit: "req/s", get: (r) => r.routes.live.rps_mean },
  { name: "bare route, saturation (end)", unit: "req/s", get: (r) => r.routes.live_end.rps_mean },
  { name: "bare route, saturation: other work", unit: "% CPU", get: (r) => r.routes.live.cpu?.other_pct },
  { name: "bare route, saturation: CPU per request", unit: "ms", get: (r) => r.routes.live.cpu?.cpu_ms_per_request },
  ...CASES.flatMap((c) => c.figures),
];

/**
 * One run of the selected cases on the mode's server: the bare route at saturation first (the
 * yardstick; run 1's figure sets rates given as fractions), the bracketed cases, the bare route
 * again, the targets of the bracketed cases, then the other cases (each run, then judged).
 * Each case reads the mode's context and this run's (`out`, `routes`, `targets`, ...) and
 * writes its figures into `out` or `routes`, its targets into `targets`.
 */
async function benchRun(ctx, runNo, calibration) {
  const { server, url, db } = ctx;
  const routes = {};
  const out = { run: runNo, at: new Date().toISOString(), routes };
  routes.live = await measure(server, "live", () => ({ url: `${url}/api/health/live` }));
  const bareRps = routes.live.rps_mean;
  out.bare_saturation_rps = bareRps;
  out.calibration = calibration ?? {
    bare_saturation_rps: bareRps,
    measured_in: `run 1: GET /api/health/live, closed loop, ${config.CONNECTIONS} connections, ${config.WARMUP} s warm-up + ${config.DURATION} s (autocannon requests.mean)`,
    lookup: resolveRate(config.LOOKUP_RATE, bareRps),
    directory: resolveRate(config.DIRECTORY_RATE, bareRps),
  };
  const cal = out.calibration;
  // The scale cases read the seeded haystack, on PostgreSQL only.
  const cases = CASES.filter((c) => selected(c.name) && (db || !c.scale));
  const heldRates = cases.filter((c) => c.held).map((c) => `${c.name} ${rateLabel(cal[c.name])}`);
  log(`  bare route ${bareRps} req/s${heldRates.length ? `; held rates${runNo > 1 ? ` (set in run 1 at bare ${cal.bare_saturation_rps} req/s)` : ""}: ${heldRates.join(", ")}` : ""}`);
  const run = { ...ctx, runNo, tag: `${ctx.runId}-r${runNo}`, out, routes, cal, bareRps, targets: {} }; // tag: idempotency keys and names of this run
  const bracketed = cases.filter((c) => c.bracketed);
  for (const c of bracketed) await c.run(run);
  // The baseline is measured again at the end (already warm): the two runs bracket the others,
  // and their difference shows how much the machine drifted meanwhile.
  routes.live_end = await measure(server, "live-end", () => ({ url: `${url}/api/health/live` }), { warmup: 0 });

  const avg = (a, b) => (a && b ? (a + b) / 2 : null);
  const drift = routes.live.rps_mean ? round((routes.live_end.rps_mean - routes.live.rps_mean) / routes.live.rps_mean, 3) : null;
  // The cases add their own req/s ratios over live_baseline_rps (routes: status, post; lookup).
  out.ratios = {
    basis: "mean requests per second (autocannon requests.mean over 1 s samples); live = average of the two live runs",
    live_baseline_rps: round(avg(routes.live.rps_mean, routes.live_end.rps_mean)),
    live_drift: drift,
  };
  out.noisy = drift !== null && Math.abs(drift) > NOISY_DRIFT;
  if (out.noisy) log(`  WARNING: the two live runs differ by ${Math.round(drift * 100)}%: something else used the CPU; treat ${ctx.mode} figures as rough`);
  for (const c of bracketed) c.judge(run);
  for (const c of cases.filter((k) => !k.bracketed)) {
    await c.run(run);
    c.judge(run);
  }
  out.targets = run.targets;
  return out;
}

// ---------------------------------------------------------------- report

function printTable(results) {
  const rows = [["mode", "run", "route", "req/s mean", "req/s p50", "lat p50", "lat p99", "non2xx", "errors", "bare req/s"]];
  for (const [mode, m] of Object.entries(results.modes)) {
    if (m.error) {
      rows.push([mode, "", "ERROR", "", "", "", "", "", "", ""]);
      continue;
    }
    for (const run of m.runs) {
      for (const [route, r] of Object.entries(run.routes)) {
        rows.push([mode, run.run, route === "live_end" ? "live (end)" : route, r.rps_mean, r.rps_p50, `${r.latency_ms.p50} ms`, `${r.latency_ms.p99} ms`, r.non2xx, r.errors, run.bare_saturation_rps]);
      }
      for (const [name, h] of CASES.filter((c) => c.held).map((c) => [`${c.name} held`, c.held(run)])) {
        if (!h) continue;
        rows.push([mode, run.run, `bare@${h.rate.offered_rps}`, h.bare_at_rate.achieved_rps, "", `${h.bare_at_rate.latency_ms.p50} ms`, `${h.bare_at_rate.latency_ms.p99} ms`, h.bare_at_rate.non2xx, h.bare_at_rate.errors, run.bare_saturation_rps]);
        rows.push([mode, run.run, `${name}@${h.rate.offered_rps}`, h.achieved_rps, "", `${h.latency_ms.p50} ms`, `${h.latency_ms.p99} ms`, h.non2xx, h.errors, run.bare_saturation_rps]);
      }
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i < 3 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  console.log("\n" + line(rows[0]));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows.slice(1)) console.log(line(r));

  for (const [mode, m] of Object.entries(results.modes)) if (m.error) console.log(`${mode}: ${m.error}`);

  for (const [mode, m] of Object.entries(results.modes)) {
    if (m.error) continue;
    printSummary(`${mode}: summary of ${m.runs.length} run(s)`, m.summary, { bareRps: m.bare_saturation_rps_median, commit: results.git?.commit, date: results.date });
  }

  console.log(`\ntargets (median of the runs; ratios: mean req/s, live = average of its two runs; latencies: open loop; "/ bare": over the bare route measured alike in the same run):`);
  for (const [mode, m] of Object.entries(results.modes)) {
    if (m.error) continue;
    const cal = m.calibration;
    const held = CASES.filter((c) => c.held?.(m.runs[0])).map((c) => `${c.name} ${rateLabel(cal[c.name])}`);
    console.log(`  ${mode}: bare route ${m.bare_saturation_rps_median} req/s (median of ${m.runs.length})${held.length ? `; held rates set from run 1's ${cal.bare_saturation_rps} req/s: ${held.join(", ")}` : ""}`);
    for (const [name, t] of Object.entries(m.targets)) {
      const note = t.provisional !== undefined
        ? `${t.provisional ? " (provisional)" : ""}; the absolute target implies ${t.implied_by_absolute_target ?? "?"} here`
        : t.reference_rps && !t.at_reference_rate ? ` (absolute, set at ${t.reference_rps} req/s on the reference machine; offered ${t.offered_rps})` : "";
      const runsNote = m.runs.length > 1 ? ` [${t.runs_passed}/${m.runs.length} runs: ${t.runs.join(", ")}]` : "";
      console.log(`  ${mode.padEnd(8)} ${name.padEnd(38)} ${String(t.value).padStart(8)}  target ${t.op} ${t.target}${note}  ${t.pass ? "PASS" : `MISSED${t.reason ? ` (${t.reason})` : ""}`}${runsNote}`);
    }
    if (m.noisy) console.log(`  ${mode.padEnd(8)} (noisy: live drifted more than ${NOISY_DRIFT * 100}% between its two runs in ${m.runs.filter((r) => r.noisy).map((r) => `run ${r.run}`).join(", ")})`);
  }
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
    git: gitInfo(root),
    total_memory_gib: round(os.totalmem() / 2 ** 30, 1),
    config: {
      host: HOST,
      connections: config.CONNECTIONS,
      pipelining: 1,
      workers: 0,
      warmup_s: config.WARMUP,
      server_warmup_s: [config.SERVER_WARMUP_S, config.SERVER_WARMUP_MAX_S],
      duration_s: config.DURATION,
      at_rate_warmup_s: config.AT_RATE_WARMUP_S,
      runs: config.RUNS,
      ratio_basis: "mean requests per second",
      cases: ONLY,
      seeded_records: config.LOOKUP_RECORDS,
      kept_database: config.KEEP_DB,
      lookup_rate: config.LOOKUP_RATE.spec,
      directory_rate: config.DIRECTORY_RATE.spec,
      slow_ms: config.SLOW_MS,
      open_loop: "latency targets: requests sent on a fixed schedule, latency counted from the scheduled time",
      server_env: config.SERVER_ENV,
      note: "autocannon runs in this process and shares the machine's cores with the server",
    },
    reference: { ...REFERENCE, latency_targets: LATENCY },
    targets: TARGETS,
    modes: {},
  };
  log(`node ${process.version}, ${cpus.length} x ${results.cpu_model}; ${config.CONNECTIONS} connections, ${config.WARMUP} s warm-up + ${config.DURATION} s per route; ${config.RUNS} run(s); held rates: lookup ${config.LOOKUP_RATE.spec}, directory ${config.DIRECTORY_RATE.spec}`);

  let failed = false;
  for (const mode of config.MODES) {
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
