// fanout: webhook deliveries per second — records issued in batches, each event delivered to
// every endpoint on a loopback receiver. On PostgreSQL two `npm run worker` processes send (the
// server's own worker is off); on PGlite the server's worker.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { round } from "../bench-common.mjs";
import { HOST, RECORD_BODY, cleanups, config, log, root, sleep, stopServer, tail } from "./common.mjs";

export const name = "fanout";
export const description = "webhook deliveries per second to N endpoints of records issued in batches";
export const figures = [
  { name: "webhook fan-out", unit: "deliveries/s", get: (r) => r.webhook_fanout.deliveries_per_s },
];

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
        ...process.env, ...config.SERVER_ENV, DATABASE_URL: databaseUrl, DATA_DIR: server.dataDir, PUBLIC_BASE_URL: server.baseUrl,
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
  const hooks = [];
  const api = (p, init) =>
    fetch(`${url}${p}`, { ...init, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...init.headers } });
  try {
    for (let i = 0; i < endpoints; i++) {
      const r = await api("/api/v1/webhooks", { method: "POST", body: JSON.stringify({ url: `${rxBase}/e${i}`, events: ["record.issued"] }), headers: {} });
      if (r.status !== 201) throw new Error(`registering a webhook failed: ${r.status} ${await r.text()}`);
      hooks.push((await r.json()).id);
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
    // The next run's records must not go to this run's endpoints (their receiver is closed now).
    for (const id of hooks) await api(`/api/v1/webhooks/${id}`, { method: "DELETE", headers: {} }).then((r) => r.arrayBuffer()).catch(() => {});
    rx.closeAllConnections();
    rx.close();
  }
}

export async function run(ctx) {
  const { db, server, url, key, tag } = ctx;
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
    const fanout = await measureFanout(url, key, tag, { ...config.fanoutSize(ctx.mode), workers: workers?.count });
    ctx.out.webhook_fanout = fanout;
    log(`  fan-out    ${fanout.deliveries} deliveries to ${fanout.endpoints} endpoints in ${fanout.seconds} s = ${fanout.deliveries_per_s} deliveries/s (steady ${fanout.steady_deliveries_per_s}/s; duplicates ${fanout.duplicates}; workers: ${fanout.workers})  [bare ${ctx.bareRps} req/s]`);
  } finally {
    await workers?.stop();
  }
}

export function judge(ctx) {
  const fanout = ctx.out.webhook_fanout;
  ctx.targets.webhook_fanout_per_s = { op: ">=", target: 1000, value: fanout.deliveries_per_s, pass: fanout.pass, bare_saturation_rps: ctx.bareRps };
}
