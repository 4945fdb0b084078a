// The fixed-rate schedule shared by `npm run bench` and `npm run bench:load`.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Open loop: `rate` requests a second for `seconds`. Request i is fired at t0 + i/rate whether
 * or not earlier ones have answered, so a slow answer cannot slow the sender and hide itself
 * (no coordinated omission); `fire(i, at)` starts request i and returns its promise, timing
 * its latency from `at` (the scheduled time, a performance.now() value). Resolves when every
 * request has settled, with the elapsed seconds, how many were sent more than 5 ms late
 * (the generator itself falling behind) and the start `t0` (a performance.now() value).
 */
export async function openLoop(rate, seconds, fire) {
  const total = Math.round(rate * seconds);
  const pending = [];
  let late = 0;
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const at = t0 + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    if (performance.now() - at > 5) late++;
    pending.push(fire(i, at));
  }
  await Promise.all(pending);
  return { seconds: (performance.now() - t0) / 1000, late, t0 };
}
