import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Every wait is for a fact (issue 37): a test must not wait a fixed time and then assert that
 * something did not happen — on a slow machine it passes without having waited long enough,
 * on a fast one it wastes the time. It reads the thing that would have happened instead (the
 * events list, the delivery rows, a marker that came later: tests/outbox.ts), or polls a
 * condition with a deadline (`until` in tests/helpers.ts, `waitFor`).
 *
 * A pure file scan, no server: every `sleep(…)`, `setTimeout(…)`, `waitForTimeout(…)` (and
 * `await delay(500)`-like calls, and node:timers/promises) in tests/, e2e/, packages/ * /test/ and the *.test.ts files under lib/
 * must say on its line, or the line just above, "time under test:" and why — a wait where
 * time itself is what is tested (an expiry passing, a clock tick so two timestamps differ, a
 * slow stand-in for a timeout) — or be one of the few helpers listed in ALLOWED below.
 */

const root = path.resolve(import.meta.dirname, "..");
const SELF = path.relative(root, import.meta.filename); // its own examples below are not waits

/** Where tests live: the suites, and (UNIT_TESTS) the unit tests beside the code under lib/. */
const SCANNED = ["tests", "e2e", ...fs.readdirSync(path.join(root, "packages")).map((p) => `packages/${p}/test`)];
const UNIT_TESTS = /\.test\.(m|c)?(t|j)sx?$/;
const SOURCE = /\.(m|c)?(t|j)sx?$/;

type Allowed = { file: string; line: string; why: string };

/** Helpers whose waits are not fixed: poll steps of a loop with a deadline, and deadlines themselves. */
const ALLOWED: Allowed[] = [
  { file: "tests/helpers.ts", line: "export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));", why: "the definition; every call is checked where it is made" },
  { file: "tests/helpers.ts", line: "await sleep(stepMs);", why: "until(): the step between two looks at its condition, with a deadline" },
  { file: "tests/webhook-receiver.ts", line: "await new Promise((r) => setTimeout(r, stepMs));", why: "waitFor(): the step between two looks at its condition, with a deadline" },
  { file: "tests/mail-capture.ts", line: "await new Promise((r) => setTimeout(r, 200));", why: "mailedLinkIn(): the step between two looks for the mail, with a deadline" },
  { file: "tests/server.ts", line: "await new Promise((r) => setTimeout(r, 200));", why: "startServer(): the step between two asks of /api/health, with a deadline" },
  { file: "tests/chain/hardhat-node.ts", line: "await new Promise((r) => setTimeout(r, 100));", why: "startHardhatNode(): the step between two looks for the node, with a deadline" },
  { file: "tests/process-group.ts", line: "await Promise.race([exited, new Promise((r) => setTimeout(r, o.graceMs))]);", why: "stop(): a deadline for the exit after SIGTERM, then SIGKILL; nothing is asserted after it" },
  { file: "tests/cluster/cluster.test.ts", line: "await new Promise((r) => setTimeout(r, 100));", why: "the step of three bounded polls of webhook_deliveries for a count of deliveries, each checked after the loop" },
  { file: "tests/cluster/cluster.test.ts", line: "await new Promise((res) => setTimeout(res, 500));", why: "the step of a bounded retry while the killed request's idempotency lease (409) or nginx's failover (502) holds" },
  { file: "tests/api/verify-cli.test.ts", line: 'const timer = setTimeout(() => p.kill("SIGKILL"), 60_000);', why: "a deadline that kills a hung CLI run (cleared when it exits), not a wait" },
];


/** A fixed wait: sleep(…), a global setTimeout(…) (not `test.setTimeout`), waitForTimeout(…), `await delay(500)` and kin, timers/promises. */
const WAITS = [
  /(?<![\w$])sleep\(/,
  /(?<![\w$.])setTimeout\(/,
  /\bwaitForTimeout\(/,
  /\bawait\s+[\w$.]*(?:sleep|delay|pause|wait)[\w$]*\(\s*\d/i,
  /["'](?:node:)?timers\/promises["']/,
];
const REASON = /time under test:\s*\S/;

/** The lines of `text` (1-based) that wait a fixed time without saying why time is under test. */
function fixedWaits(text: string): { line: number; text: string }[] {
  const lines = text.split("\n");
  const found: { line: number; text: string }[] = [];
  lines.forEach((raw, i) => {
    const code = raw.trim();
    if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) return; // prose
    if (!WAITS.some((re) => re.test(code))) return;
    if (REASON.test(raw) || (i > 0 && REASON.test(lines[i - 1]!))) return;
    found.push({ line: i + 1, text: code });
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs.readdirSync(abs, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name) && !path.join(e.parentPath, e.name).includes(`${path.sep}node_modules${path.sep}`))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

const exempt = (list: Allowed[], file: string, text: string) => list.find((a) => a.file === file && text.includes(a.line));

describe("every wait is for a fact", () => {
  it("the scanner finds a bare fixed wait, and accepts one that says why time is under test", () => {
    const found = fixedWaits([
      "await sleep(500);", // 1: a guess
      "await new Promise((r) => setTimeout(r, 800)); // nothing more may arrive", // 2: a guess, with a comment that is no reason
      "await page.waitForTimeout(300);", // 3
      "await delay(250);", // 4
      'import { setTimeout as pause } from "node:timers/promises";', // 5
      "// time under test: a clock tick, so the two timestamps differ", // 6
      "await sleep(20);", // 7: reason on the line above
      "await sleep(1100); // time under test: the rate limit's 1 s window ending", // 8: reason on the line
      "test.setTimeout(120_000);", // 9: a test's own time limit, not a wait
      'await until("the sighting", () => found(), 15_000, 250);', // 10: a condition with a deadline
      "// await sleep(500) in prose", // 11
      " * or sleep(500) in a doc comment", // 12
      "await sleep(stepMs); // time under test:", // 13: the words without a reason
    ].join("\n"));
    expect(found.map((f) => f.line)).toEqual([1, 2, 3, 4, 5, 13]);
  });

  it("no test, helper or spec waits a fixed time unless time is under test", () => {
    const files = [...SCANNED.flatMap(sourceFiles), ...sourceFiles("lib").filter((f) => UNIT_TESTS.test(f))].filter((f) => f !== SELF);
    expect(files.some((f) => f.startsWith("lib/"))).toBe(true);
    expect(files.length).toBeGreaterThan(100); // it did look
    const offenders = files.flatMap((file) =>
      fixedWaits(fs.readFileSync(path.join(root, file), "utf8"))
        .filter((w) => !exempt(ALLOWED, file, w.text))
        .map((w) => `${file}:${w.line}: ${w.text}`),
    );
    expect(offenders, "wait for the thing that would have happened (tests/outbox.ts, until()), or say `time under test:` and why").toEqual([]);
  });

  it("every allowed helper wait is still there (a stale entry would hide a new one)", () => {
    for (const a of ALLOWED) {
      expect(a.why.length, a.line).toBeGreaterThan(10);
      const text = fs.readFileSync(path.join(root, a.file), "utf8");
      expect(fixedWaits(text).some((w) => w.text.includes(a.line)), `${a.file}: ${a.line}`).toBe(true);
    }
  });
});
