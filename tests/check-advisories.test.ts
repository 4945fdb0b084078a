import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** scripts/check-advisories.mjs on the committed list (--offline: the list, not the registry) against real and made-up locks. */
const root = path.resolve(import.meta.dirname, "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-advisories-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function check(lock: unknown, advisories?: unknown) {
  const lockFile = path.join(dir, `lock-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(lockFile, JSON.stringify(lock));
  const extra: string[] = [];
  if (advisories !== undefined) {
    const listFile = `${lockFile}.advisories.json`;
    fs.writeFileSync(listFile, JSON.stringify(advisories));
    extra.push("--advisories", listFile);
  }
  const r = spawnSync(process.execPath, [path.join(root, "scripts/check-advisories.mjs"), "--offline", "--lock", lockFile, ...extra], { encoding: "utf8" });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const lockWith = (packages: Record<string, string>) => ({
  lockfileVersion: 3,
  packages: { "": { name: "x" }, ...Object.fromEntries(Object.entries(packages).map(([k, version]) => [k, { version }])) },
});

describe("check:advisories", () => {
  it("passes the project's own lock: no high or critical advisory in it", () => {
    const r = check(JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")));
    expect(r.out).toMatch(/0 high or critical/);
    expect(r.status).toBe(0);
  });

  it("fails on nodemailer 7.0.13 (the version we had), naming each high advisory and its fixed version", () => {
    const r = check(lockWith({ "node_modules/nodemailer": "7.0.13" }));
    expect(r.status).toBe(1);
    expect(r.out).toContain("HIGH nodemailer@7.0.13 — GHSA-p6gq-j5cr-w38f");
    expect(r.out).toContain("HIGH nodemailer@7.0.13 — GHSA-2x7j-588g-ccc2");
    expect(r.out).toMatch(/GHSA-2x7j-588g-ccc2: [^\n]*\(fixed: 9\.1\.0\)/);
    expect(r.out).toMatch(/2 high or critical/);
  });

  it("finds nested copies, checks each installed version, and respects range boundaries", () => {
    const r = check(lockWith({
      "node_modules/form-data": "4.0.4", // fixed
      "node_modules/a/node_modules/form-data": "4.0.3", // vulnerable
      "node_modules/sha.js": "2.4.12", // fixed (<=2.4.11)
      "node_modules/b/node_modules/sha.js": "2.4.11",
      "node_modules/next": "16.4.6",
    }));
    expect(r.status).toBe(1);
    expect(r.out).toContain("CRITICAL form-data@4.0.3");
    expect(r.out).not.toContain("form-data@4.0.4");
    expect(r.out).toContain("CRITICAL sha.js@2.4.11");
    expect(r.out).not.toContain("sha.js@2.4.12");
    expect(r.out).not.toMatch(/next@/);
    expect(r.out).toMatch(/2 high or critical/);
  });

  it("prints moderate and low matches without failing", () => {
    const r = check(lockWith({ "node_modules/esbuild": "0.18.20" }));
    expect(r.status).toBe(0);
    expect(r.out).toContain("MODERATE esbuild@0.18.20 — GHSA-67mh-4wv8-2f99");
  });

  it("refuses a list it cannot trust (exit 2) rather than matching nothing", () => {
    const entry = { package: "nodemailer", id: "GHSA-2x7j-588g-ccc2", severity: "high", vulnerable: "<9.1.0", fixed: "9.1.0", title: "t" };
    for (const [bad, message] of [
      [{ ...entry, vulnerable: "before 9.1" }, /"vulnerable" is not a semver range/],
      [{ ...entry, id: "CVE-2025-1" }, /"id" must be a GHSA id/],
      [{ ...entry, severity: "severe" }, /"severity" must be one of/],
      [{ ...entry, fixed: "9.1" }, /"fixed" is not a version/],
    ] as const) {
      const r = check(lockWith({ "node_modules/nodemailer": "7.0.13" }), { advisories: [bad] });
      expect(r.status).toBe(2);
      expect(r.out).toMatch(message);
    }
    expect(check(lockWith({}), { nope: [] }).status).toBe(2);
  });
});
