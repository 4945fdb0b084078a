// Preloaded into the bench's servers (`node --require scripts/stall-watch.cjs …`) when
// PRS_STALL_LOG names a file: appends one JSON line per main-thread stall of this process of
// at least PRS_STALL_MS (default 50) — a garbage-collection pause ({kind: "gc"}) or a second
// in which the event loop was held up that long ({kind: "loop"}, its largest delay). The bench
// (scripts/bench-watch.mjs) lines them up with its slow requests. Costs a 10 ms timer and a
// GC observer; writes nothing while nothing stalls.
"use strict";
const file = process.env.PRS_STALL_LOG;
if (file) {
  const fs = require("node:fs");
  const { PerformanceObserver, monitorEventLoopDelay, performance, constants } = require("node:perf_hooks");
  const min = Number(process.env.PRS_STALL_MS) > 0 ? Number(process.env.PRS_STALL_MS) : 50;
  const write = (o) => {
    try {
      fs.appendFileSync(file, JSON.stringify({ pid: process.pid, ...o }) + "\n");
    } catch {
      /* the bench's folder went away: nothing to report to */
    }
  };
  const gcKind = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration >= min) {
        write({ t: Math.round(performance.timeOrigin + e.startTime), kind: "gc", gc: gcKind[e.detail?.kind] ?? String(e.detail?.kind), ms: Math.round(e.duration * 10) / 10 });
      }
    }
  }).observe({ entryTypes: ["gc"] });
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  setInterval(() => {
    const max = h.max / 1e6;
    if (max >= min) write({ t: Date.now(), kind: "loop", max_ms: Math.round(max), window_ms: 1000 });
    h.reset();
  }, 1000).unref();
}
