// What else happened while a held-rate phase ran, so a slow request can be explained (issue 37:
// bench:load's "1.14 s tail at 100 req/s"). Used by scripts/bench.mjs and scripts/bench-load.mjs.
//
// - startWatch(): every second, the machine's CPU split into this bench's processes (this one
//   and everything it started: servers, workers, nginx), PostgreSQL's for the bench database
//   (its backends and the server's background processes) and everything else — other
//   sessions' processes and databases; this process's event-loop delay and GC
//   pauses (the load generator: a stall there sends requests late); PostgreSQL's autovacuum
//   workers and whether the checkpointer is in a checkpoint; and at the end the checkpoints,
//   autovacuums and autoanalyzes that ran, and the servers' own stalls (scripts/stall-watch.cjs).
// - slowReport(): the requests slower than a threshold, grouped into episodes, each with what
//   the watch saw meanwhile; and a per-second timeline of the phase.
import fs from "node:fs";
import os from "node:os";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import postgres from "postgres";

const round = (x, d = 1) => (x == null || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d);
const epoch = (perfMs) => performance.timeOrigin + perfMs;
const iso = (ms) => new Date(ms).toISOString();

/** Aggregate CPU ticks (all cores) from /proc/stat: total, busy, steal; null off Linux. */
function machineTicks() {
  try {
    const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = f;
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { total, busy: user + nice + system + irq + softirq + steal, steal };
  } catch {
    return null;
  }
}

/** Every process: pid → { ppid, comm, ticks (utime + stime) }. */
function processTable() {
  const out = new Map();
  let pids = [];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = s.lastIndexOf(")");
      const comm = s.slice(s.indexOf("(") + 1, close);
      const f = s.slice(close + 2).split(" ");
      // fields after the comm: state(0) ppid(1) … utime(11) stime(12)
      out.set(Number(pid), { ppid: Number(f[1]), comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/** This bench's CPU ticks (this process and its descendants) and each PostgreSQL process's. */
function snapshot() {
  const table = processTable();
  const ours = new Set([process.pid]);
  // Descendants of this process (children are listed after parents most of the time; loop until stable).
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of table) if (!ours.has(pid) && ours.has(p.ppid)) (ours.add(pid), (grew = true));
  }
  let oursTicks = 0;
  const pg = new Map();
  for (const [pid, p] of table) {
    if (ours.has(pid)) oursTicks += p.ticks;
    else if (p.comm.startsWith("postgres")) pg.set(pid, p.ticks);
  }
  return { ours: oursTicks, pg };
}

/**
 * Ticks between two snapshots: this bench's, PostgreSQL's for this database (`pgPids`: its
 * backends and the server's background processes) and PostgreSQL's for other databases (other
 * work: the server may be shared). Without `pgPids` (no bench database: PGlite runs inside the
 * server) all of PostgreSQL is other work.
 */
function between(a, b, pgPids) {
  let pgOurs = 0;
  let pgOther = 0;
  for (const [pid, t] of b.pg) {
    const d = Math.max(0, t - (a.pg.get(pid) ?? 0)); // a backend born meanwhile counts from 0
    if (pgPids?.has(pid)) pgOurs += d;
    else pgOther += d;
  }
  return { ours: Math.max(0, b.ours - a.ours), postgres: pgOurs, pgOther };
}

/**
 * Start watching. `pgUrl` (optional): a connection to the bench database, for PostgreSQL's
 * background work; `stallLogs`: files the servers' stall-watch writes to. Returns
 * { stop() → report }, the report holding the per-second samples and the totals.
 */
export function startWatch({ pgUrl = null, stallLogs = [], intervalMs = 1000 } = {}) {
  const started = Date.now();
  /** PostgreSQL processes that work for this database (seen in pg_stat_activity); null without a connection. */
  const pgPids = pgUrl ? new Set() : null;
  const samples = [];
  const genGc = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const gcObs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration >= 20) genGc.push({ t: Math.round(epoch(e.startTime)), ms: round(e.duration) });
  });
  gcObs.observe({ entryTypes: ["gc"] });
  const sql = pgUrl ? postgres(pgUrl, { max: 1, onnotice: () => {}, connect_timeout: 5, idle_timeout: 0 }) : null;
  const pgCounters = async () => {
    if (!sql) return null;
    try {
      const [bg] = await sql`select checkpoints_timed::int as timed, checkpoints_req::int as requested, buffers_checkpoint::int as buffers from pg_stat_bgwriter`;
      const tables = await sql`select relname, autovacuum_count::int as av, autoanalyze_count::int as aa from pg_stat_user_tables`;
      return { checkpoints: bg, tables: Object.fromEntries(tables.map((t) => [t.relname, { av: t.av, aa: t.aa }])) };
    } catch (e) {
      return { error: String(e?.message ?? e) };
    }
  };
  const pgSample = async () => {
    if (!sql) return null;
    try {
      const rows = await sql`
        select pid, datname, backend_type, wait_event, state, left(query, 120) as query from pg_stat_activity
        where datname = current_database() or datname is null`;
      for (const r of rows) pgPids.add(r.pid);
      return {
        active_backends: rows.filter((r) => r.backend_type === "client backend" && r.state === "active").length - 1, // not this one
        autovacuum: rows.filter((r) => r.backend_type === "autovacuum worker").map((r) => r.query),
        checkpointer: rows.find((r) => r.backend_type === "checkpointer")?.wait_event ?? null,
      };
    } catch (e) {
      return { error: String(e?.message ?? e) };
    }
  };
  const counters0 = pgCounters();
  let lastM = machineTicks();
  let lastP = lastM ? snapshot() : null;
  const firstM = lastM;
  const firstP = lastP;
  if (pgUrl) void pgSample(); // learn this database's PostgreSQL processes before the first reading
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return; // a slow sample must not pile up behind itself
    busy = true;
    try {
      const t = Date.now();
      const m = machineTicks();
      const p = m ? snapshot() : null;
      let cpu = null;
      if (m && lastM && m.total > lastM.total) {
        const d = m.total - lastM.total;
        const pct = (x) => round((100 * x) / d, 0);
        const { ours, postgres: pg } = between(lastP, p, pgPids);
        const b = m.busy - lastM.busy;
        cpu = { busy_pct: pct(b), steal_pct: pct(m.steal - lastM.steal), ours_pct: pct(ours), postgres_pct: pct(pg), other_pct: pct(Math.max(0, b - ours - pg)) };
      }
      lastM = m;
      lastP = p;
      const genLoopMax = round(loop.max / 1e6, 0);
      loop.reset();
      samples.push({ t, cpu, generator_loop_max_ms: genLoopMax, pg: await pgSample() });
    } finally {
      busy = false;
    }
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      loop.disable();
      gcObs.disconnect();
      const stopped = Date.now();
      const [c0, c1] = [await counters0, await pgCounters()];
      await sql?.end({ timeout: 5 });
      let pg = null;
      if (c0 && c1 && !c0.error && !c1.error) {
        const tables = {};
        for (const [name, t1] of Object.entries(c1.tables)) {
          const t0 = c0.tables[name] ?? { av: 0, aa: 0 };
          if (t1.av > t0.av || t1.aa > t0.aa) tables[name] = { autovacuums: t1.av - t0.av, autoanalyzes: t1.aa - t0.aa };
        }
        pg = {
          checkpoints_timed: c1.checkpoints.timed - c0.checkpoints.timed,
          checkpoints_requested: c1.checkpoints.requested - c0.checkpoints.requested,
          checkpoint_buffers_written: c1.checkpoints.buffers - c0.checkpoints.buffers,
          autovacuum_runs: tables,
          seconds_with_autovacuum: samples.filter((s) => s.pg?.autovacuum?.length).length,
          seconds_in_checkpoint: samples.filter((s) => s.pg?.checkpointer && s.pg.checkpointer !== "CheckpointerMain").length,
        };
      } else if (c0?.error || c1?.error) pg = { error: c0?.error ?? c1?.error };
      const serverStalls = [];
      for (const f of stallLogs) {
        let text = "";
        try {
          text = fs.readFileSync(f, "utf8");
        } catch {
          continue;
        }
        for (const l of text.split("\n")) {
          if (!l) continue;
          try {
            const s = JSON.parse(l);
            // A loop entry covers the second before its time.
            if (s.t >= started && s.t - (s.window_ms ?? 0) <= stopped) serverStalls.push(s);
          } catch { /* a line being written */ }
        }
      }
      serverStalls.sort((a, b) => a.t - b.t);
      const cpus = samples.map((s) => s.cpu).filter(Boolean);
      const maxOf = (k) => (cpus.length ? Math.max(...cpus.map((c) => c[k] ?? 0)) : null);
      // Whole-phase CPU seconds (all cores), from the first and a last reading.
      let totals = null;
      const endM = machineTicks();
      if (firstM && endM && endM.total > firstM.total) {
        const d = endM.total - firstM.total;
        const cpuS = (ticks) => round((ticks / d) * os.cpus().length * ((stopped - started) / 1000), 2);
        const { ours, postgres: pg } = between(firstP, snapshot(), pgPids);
        const busy = endM.busy - firstM.busy;
        totals = {
          wall_s: round((stopped - started) / 1000, 2), busy_pct: round((100 * busy) / d, 0), ours_pct: round((100 * ours) / d, 0),
          postgres_pct: round((100 * pg) / d, 0), other_pct: round((100 * Math.max(0, busy - ours - pg)) / d, 0),
          ours_cpu_s: cpuS(ours), postgres_cpu_s: cpuS(pg), other_cpu_s: cpuS(Math.max(0, busy - ours - pg)),
        };
      }
      return {
        from: iso(started), to: iso(stopped), interval_ms: intervalMs,
        cpu: { ...totals, other_pct_max: maxOf("other_pct"), steal_pct_max: maxOf("steal_pct") },
        generator: { loop_delay_max_ms: samples.length ? Math.max(...samples.map((s) => s.generator_loop_max_ms ?? 0)) : null, gc_pauses_over_20ms: genGc },
        server_stalls: serverStalls,
        postgres: pg,
        samples,
      };
    },
  };
}

/**
 * A phase's CPU in a line's worth: the machine's busy share and who used it (this bench's
 * processes, PostgreSQL, other work), and the CPU time this bench and PostgreSQL spent per
 * request — the cost of a request, which moves far less with other work than req/s do.
 */
export function cpuSummary(watch, requests) {
  const c = watch?.cpu;
  if (!c || c.busy_pct == null) return null;
  return {
    busy_pct: c.busy_pct, ours_pct: c.ours_pct, postgres_pct: c.postgres_pct, other_pct: c.other_pct, other_pct_max: c.other_pct_max,
    cpu_ms_per_request: requests ? round((1000 * (c.ours_cpu_s + c.postgres_cpu_s)) / requests, 2) : null,
  };
}

/** "CPU: this bench 40 %, postgres 10 %, other work 50 %; 2.1 ms CPU per request" */
export const cpuLabel = (c) => (c ? `CPU: this bench ${c.ours_pct} %, postgres ${c.postgres_pct} %, other work ${c.other_pct} %${c.cpu_ms_per_request != null ? `; ${c.cpu_ms_per_request} ms CPU per request` : ""}` : "CPU: ?");

const pctOf = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);

/**
 * Slow requests of a held-rate phase and the phase's per-second timeline. `requests`: one per
 * request, { at (scheduled, performance.now() ms), ms (latency from `at`), route, status,
 * late_ms (sent this late), upstream, upstream_ms } — the last two when nginx names them.
 * `t0`: the phase's start (performance.now() ms). `watch`: startWatch's report, or null.
 */
export function slowReport(requests, t0, { slowMs = 500, watch = null, maxListed = 50 } = {}) {
  const rel = (at) => round((at - t0) / 1000, 2);
  const slow = requests.filter((r) => r.ms >= slowMs).sort((a, b) => a.at - b.at);
  // An episode: slow requests scheduled less than a second apart.
  const episodes = [];
  for (const r of slow) {
    const e = episodes.at(-1);
    if (e && r.at - e.last_at < 1000) {
      e.reqs.push(r);
      e.last_at = r.at;
    } else episodes.push({ reqs: [r], first_at: r.at, last_at: r.at });
  }
  const out = episodes.map((e) => {
    const byRoute = {};
    const byUpstream = {};
    for (const r of e.reqs) {
      byRoute[r.route] = (byRoute[r.route] ?? 0) + 1;
      if (r.upstream) byUpstream[r.upstream] = (byUpstream[r.upstream] ?? 0) + 1;
    }
    const maxMs = Math.max(...e.reqs.map((r) => r.ms));
    const ups = e.reqs.map((r) => r.upstream_ms).filter((x) => typeof x === "number");
    const from = epoch(e.first_at);
    const to = epoch(e.last_at) + maxMs;
    const ep = {
      from_s: rel(e.first_at), to_s: rel(e.last_at), at: iso(from), requests: e.reqs.length, by_route: byRoute,
      latency_max_ms: round(maxMs), sent_late_max_ms: round(Math.max(...e.reqs.map((r) => r.late_ms ?? 0))),
      ...(ups.length ? { in_instances_max_ms: round(Math.max(...ups)), by_instance: byUpstream } : {}),
    };
    if (watch) {
      const near = watch.samples.filter((s) => s.t >= from - 1000 && s.t <= to + 1000);
      const cpus = near.map((s) => s.cpu).filter(Boolean);
      const mx = (k) => (cpus.length ? Math.max(...cpus.map((c) => c[k] ?? 0)) : null);
      ep.meanwhile = {
        cpu_busy_max_pct: mx("busy_pct"), cpu_ours_max_pct: mx("ours_pct"), cpu_postgres_max_pct: mx("postgres_pct"), cpu_other_max_pct: mx("other_pct"), cpu_steal_max_pct: mx("steal_pct"),
        generator_loop_max_ms: near.length ? Math.max(...near.map((s) => s.generator_loop_max_ms ?? 0)) : null,
        generator_gc: watch.generator.gc_pauses_over_20ms.filter((g) => g.t >= from - 1000 && g.t <= to),
        server_stalls: watch.server_stalls.filter((s) => s.t >= from - 1000 && s.t - (s.window_ms ?? 0) <= to),
        autovacuum: [...new Set(near.flatMap((s) => s.pg?.autovacuum ?? []))],
        checkpointer: [...new Set(near.map((s) => s.pg?.checkpointer).filter(Boolean))],
      };
    }
    return ep;
  });
  // Per-second timeline, by scheduled time.
  const seconds = new Map();
  for (const r of requests) {
    const s = Math.floor((r.at - t0) / 1000);
    if (!seconds.has(s)) seconds.set(s, []);
    seconds.get(s).push(r);
  }
  const timeline = [...seconds.entries()].sort((a, b) => a[0] - b[0]).map(([s, rs]) => {
    const ms = rs.map((r) => r.ms).sort((a, b) => a - b);
    const ups = rs.map((r) => r.upstream_ms).filter((x) => typeof x === "number").sort((a, b) => a - b);
    return {
      second: s, requests: rs.length, p50_ms: round(pctOf(ms, 50)), p99_ms: round(pctOf(ms, 99)), max_ms: round(ms.at(-1)),
      slow: rs.filter((r) => r.ms >= slowMs).length, ...(ups.length ? { in_instances_p99_ms: round(pctOf(ups, 99)) } : {}),
    };
  });
  return {
    threshold_ms: slowMs, slow_requests: slow.length, episodes: out,
    listed: slow.slice(0, maxListed).map((r) => ({
      t_s: rel(r.at), at: iso(epoch(r.at)), route: r.route, ...(r.path ? { path: r.path } : {}), ms: round(r.ms), status: r.status,
      late_ms: round(r.late_ms), ...(r.upstream ? { upstream: r.upstream } : {}), ...(typeof r.upstream_ms === "number" ? { in_instance_ms: round(r.upstream_ms) } : {}),
    })),
    timeline,
  };
}

/** "pid 123: gc minor ×2 (max 108 ms), loop held ×5 (max 499 ms); pid 456: …" */
function summarizeStalls(stalls) {
  const by = new Map();
  for (const s of stalls) {
    const k = `${s.pid}\t${s.kind === "gc" ? `gc ${s.gc}` : "loop held"}`;
    const v = s.kind === "gc" ? s.ms : s.max_ms;
    const e = by.get(k) ?? { n: 0, max: 0 };
    by.set(k, { n: e.n + 1, max: Math.max(e.max, v) });
  }
  const pids = new Map();
  for (const [k, e] of by) {
    const [pid, what] = k.split("\t");
    if (!pids.has(pid)) pids.set(pid, []);
    pids.get(pid).push(`${what} ×${e.n} (max ${round(e.max, 0)} ms)`);
  }
  return [...pids].map(([pid, xs]) => `pid ${pid}: ${xs.join(", ")}`).join("; ");
}

/** Print a slowReport's episodes (nothing when no request was slow). */
export function printSlow(label, report, log = console.log) {
  if (!report?.slow_requests) return;
  log(`  ${label}: ${report.slow_requests} requests ≥ ${report.threshold_ms} ms, in ${report.episodes.length} episode(s):`);
  for (const e of report.episodes.slice(0, 10)) {
    const routes = Object.entries(e.by_route).map(([k, v]) => `${k} ${v}`).join(", ");
    const inst = e.in_instances_max_ms !== undefined ? `; in the instances ≤ ${e.in_instances_max_ms} ms (${Object.keys(e.by_instance ?? {}).length} instance(s))` : "";
    log(`    t=${e.from_s}–${e.to_s} s (${e.at}): ${e.requests} slow (${routes}), max ${e.latency_max_ms} ms, sent late ≤ ${Math.max(0, e.sent_late_max_ms)} ms${inst}`);
    const m = e.meanwhile;
    if (m) {
      const stalls = m.server_stalls.length ? summarizeStalls(m.server_stalls) : "none ≥ 50 ms";
      const gen = m.generator_gc.length ? `, gc ${m.generator_gc.map((g) => `${g.ms} ms`).join(", ")}` : "";
      log(`      meanwhile: CPU busy ≤ ${m.cpu_busy_max_pct} % (this bench ≤ ${m.cpu_ours_max_pct} %, postgres ≤ ${m.cpu_postgres_max_pct} %, other work ≤ ${m.cpu_other_max_pct} %, steal ≤ ${m.cpu_steal_max_pct} %); ` +
        `server stalls: ${stalls}; load generator: loop delay ≤ ${m.generator_loop_max_ms} ms${gen}; autovacuum: ${m.autovacuum.length ? m.autovacuum.join(" | ") : "none"}; checkpointer: ${m.checkpointer.join(", ") || "?"}`);
    }
  }
  if (report.episodes.length > 10) log(`    … ${report.episodes.length - 10} more episodes in the results file`);
}
