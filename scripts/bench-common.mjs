// What `npm run bench` (scripts/bench.mjs) and `npm run bench:load` (scripts/bench-load.mjs)
// share: command-line options, a kept database and its server state, fixed rates given as a
// fraction of the bare route's saturation, and the summary of repeated runs (--runs N).
// docs/benchmarks.md describes them.
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export const round = (x, d = 1) => (x == null || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

/**
 * `--name value` / `--name=value` options; `repeatable` names collect into arrays. With
 * `positional`, other arguments collect into `_`; without, they throw, as an unknown option does.
 */
export function parseArgs(argv, known, { repeatable = [], positional = false } = {}) {
  const o = positional ? { _: [] } : {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--") && positional) {
      o._.push(a);
      continue;
    }
    if (!a.startsWith("--")) throw new Error(`unexpected argument '${a}' (see docs/benchmarks.md)`);
    const eq = a.indexOf("=");
    const k = eq > 0 ? a.slice(2, eq) : a.slice(2);
    const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined) throw new Error(`--${k} needs a value`);
    if (!known.includes(k)) throw new Error(`unknown option --${k} (known: ${known.join(", ")})`);
    if (repeatable.includes(k)) (o[k] ??= []).push(v);
    else o[k] = v;
  }
  return o;
}

/** A positive whole number of runs (`--runs`), 1 when unset. */
export function runsOption(v) {
  if (v === undefined || v === "") return 1;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new Error(`--runs wants a whole number from 1 to 50, not '${v}'`);
  return n;
}

// ---------------------------------------------------------------- rates

/**
 * A held rate as given: `200` (requests per second) or `0.7x` (0.7 × the bare route's
 * saturation req/s measured on this machine at the start of the invocation).
 */
export function rateSpec(v, fallback, name) {
  const s = String(v ?? fallback).trim();
  const frac = /^([0-9]*\.?[0-9]+)x$/i.exec(s);
  if (frac) {
    const fraction = Number(frac[1]);
    if (!(fraction > 0 && fraction <= 5)) throw new Error(`${name}: a fraction of the bare route's saturation wants 0 < f <= 5, not '${s}'`);
    return { spec: s, fraction };
  }
  const abs = Number(s);
  if (!(Number.isFinite(abs) && abs > 0 && abs <= 20_000)) throw new Error(`${name} wants requests per second (e.g. 200) or a fraction of the bare route's saturation (e.g. 0.7x), not '${s}'`);
  return { spec: s, absolute: abs };
}

/** The offered rate of a spec on a machine whose bare route saturates at `bareRps`, with the fraction it is of that. */
export function resolveRate(spec, bareRps) {
  const offered = spec.absolute ?? Math.max(1, Math.round(spec.fraction * bareRps));
  return {
    spec: spec.spec,
    given_as: spec.absolute !== undefined ? "absolute" : "fraction",
    offered_rps: offered,
    fraction_of_bare: bareRps ? round(offered / bareRps, 3) : null,
    bare_saturation_rps: bareRps,
  };
}

/** "200 req/s = 0.27 × bare 740 req/s" */
export const rateLabel = (r) => `${r.offered_rps} req/s = ${r.fraction_of_bare ?? "?"} × bare ${r.bare_saturation_rps ?? "?"} req/s`;

// ---------------------------------------------------------------- repeated runs

export function median(xs) {
  const v = xs.filter((x) => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/**
 * Per figure: each run's value, the median and the spread (min–max). `figures` is
 * [{ name, unit, get(run) }]; a figure no run has is left out.
 */
export function summarizeRuns(runs, figures) {
  const out = {};
  for (const f of figures) {
    const values = runs.map((r) => {
      try {
        const v = f.get(r);
        return typeof v === "number" && Number.isFinite(v) ? v : null;
      } catch {
        return null;
      }
    });
    const have = values.filter((v) => v !== null);
    if (!have.length) continue;
    out[f.name] = { unit: f.unit, values, median: round(median(have), 3), min: Math.min(...have), max: Math.max(...have) };
  }
  return out;
}

/**
 * The summary table of an invocation: one row per figure with its median, min, max and each
 * run's value, the bare route's saturation req/s (median over the runs), the commit and the date.
 */
export function printSummary(title, summary, { bareRps, commit, date }) {
  const runsN = Math.max(0, ...Object.values(summary).map((s) => s.values.length));
  const head = ["figure", "unit", "median", "min", "max", ...Array.from({ length: runsN }, (_, i) => `run ${i + 1}`), "bare req/s", "commit", "date"];
  const sha = commit ? commit.slice(0, 12) : "?";
  const rows = [head];
  for (const [name, s] of Object.entries(summary)) {
    rows.push([name, s.unit, s.median, s.min, s.max, ...s.values.map((v) => (v === null ? "—" : v)), bareRps ?? "?", sha, date.slice(0, 19) + "Z"]);
  }
  const widths = head.map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? "").length)));
  const line = (r) => r.map((c, i) => (i < 2 || i >= head.length - 2 ? String(c ?? "").padEnd(widths[i]) : String(c ?? "").padStart(widths[i]))).join("  ");
  console.log(`\n${title}`);
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows.slice(1)) console.log(line(r));
}

/** `git rev-parse HEAD` and whether tracked files have uncommitted changes. */
export function gitInfo(root) {
  const git = (...args) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
  const head = git("rev-parse", "HEAD");
  if (head.status !== 0) return null;
  const dirty = git("status", "--porcelain", "--untracked-files=no").stdout.trim();
  return { commit: head.stdout.trim(), uncommitted_changes: dirty.length > 0 };
}

// ---------------------------------------------------------------- kept database

export const freePort = (host = "127.0.0.1") =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, host, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

export function checkDbName(name) {
  if (name && !/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`--db wants a plain lower-case database name, not '${name}'`);
  return name;
}

/**
 * A kept database (--db) carries a transparency log signed with the note key of the first
 * server that used it, and named after that server's base URL: later runs — of `bench` or of
 * `bench:load`, which serves on this port through nginx — use the same key and port. Both are
 * kept in `$TMPDIR/prs-bench-<db>.json`; if that file is lost, drop the database.
 */
export async function keptServerState(name) {
  const file = path.join(os.tmpdir(), `prs-bench-${name}.json`);
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    const state = { port: await freePort(), logNoteKey: randomBytes(32).toString("base64") };
    fs.writeFileSync(file, JSON.stringify(state));
    return state;
  }
}

/**
 * The bench database: `keep` (created if missing, never dropped) or a fresh `<prefix>_<ms>`
 * dropped by the returned cleanup. Returns { name, url, created, drop }.
 */
export async function openBenchDatabase(adminUrl, { keep = null, prefix = "prs_bench" } = {}) {
  const name = keep ?? `${prefix}_${Date.now()}`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  let created = false;
  try {
    const exists = keep && (await sql`select 1 from pg_database where datname = ${name}`).length > 0;
    if (!exists) {
      await sql.unsafe(`CREATE DATABASE ${name}`);
      created = true;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
  const drop = keep ? async () => {} : async () => {
    const s = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      await s.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await s.end({ timeout: 5 });
    }
  };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), created, drop };
}

/** The PostgreSQL settings that decide background work during a run (recorded with the results). */
export async function pgSettings(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    const rows = await sql`
      select name, setting, unit from pg_settings
      where name in ('server_version', 'autovacuum', 'autovacuum_naptime', 'checkpoint_timeout', 'max_wal_size',
                     'checkpoint_completion_target', 'shared_buffers', 'fsync', 'synchronous_commit', 'max_connections')`;
    return Object.fromEntries(rows.map((r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting]));
  } catch (e) {
    return { error: String(e?.message ?? e) };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Discarded load in 5 s slices until the CPU per request has stopped falling: at least
 * `minS` seconds, then until a slice is less than `drop` (5 %) cheaper per request than the one
 * before (fresh processes get cheaper per request as V8 compiles their hot paths), at most `maxS`.
 * `slice(seconds)` runs one slice and resolves to its CPU ms per request (null when unknown).
 * Returns { seconds, cpu_ms_per_request_by_5s, converged }.
 */
export async function warmUntilSteady(slice, { minS, maxS, drop = 0.05 }) {
  const costs = [];
  let seconds = 0;
  let converged = false;
  while (seconds < maxS) {
    const s = Math.min(5, maxS - seconds);
    costs.push(await slice(s));
    seconds += s;
    if (seconds < minS || costs.length < 2) continue;
    const [prev, last] = costs.slice(-2);
    if (prev == null || last == null || last > prev * (1 - drop)) {
      converged = prev != null && last != null;
      break;
    }
  }
  return { seconds, cpu_ms_per_request_by_5s: costs, converged };
}
