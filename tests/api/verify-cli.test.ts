import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baseUrl, call, companyStatus, newLiveAccount, until } from "../helpers";
import { withServerDb } from "../server-db";

/**
 * The offline verifier (packages/verify, `npx prs-verify`) against the running server: it
 * reads the JWKS, the log key, checkpoints and tiles over HTTP and checks what the service
 * signed — and catches a status edited behind the service's back.
 */
const bin = path.resolve(import.meta.dirname, "..", "..", "packages", "verify", "bin", "prs-verify.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prs-verify-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function prsVerify(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (c) => (out += c));
    p.stderr.on("data", (c) => (out += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), 60_000);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
const save = (name: string, value: unknown) => {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, typeof value === "string" ? value : JSON.stringify(value));
  return f;
};

async function issueLive(key: string, subject: string) {
  const r = await call("POST", "/api/v1/records", { key, body: companyStatus({ subject, claim: `${subject} is active.`, visibility: "public" }) });
  expect(r.status, r.text).toBe(201);
  return r.body;
}
const provenAs = (id: string, status: string) => until(`${id} logged as ${status}`, async () => {
  const s = (await call("GET", `/api/v1/records/${id}/status`)).body;
  return s.transparency_log && JSON.parse(s.transparency_log.leaf).status === status ? s : undefined;
}, 15_000, 150);

describe("prs-verify against the running server", () => {
  it("verifies a record, its status with its log proof, its log entries, a lookup answer and consistency read from tiles", async () => {
    const base = baseUrl();
    const logKey = `${base}/log/key`;
    const jwks = `${base}/.well-known/jwks.json`;
    const { liveKey } = await newLiveAccount();
    const rec = await issueLive(liveKey, "Verified Offline Ltd");
    const id = rec.verification_id as string;
    await provenAs(id, "active");
    const oldCheckpoint = save("old-checkpoint.txt", await (await fetch(`${base}/log/checkpoint`)).text());

    const status = await prsVerify("status", `${base}/api/v1/records/${id}/status`, "--jwks", jwks, "--log-key", logKey);
    expect(status.code, status.out).toBe(0);
    const record = await prsVerify("record", save("record.json", rec), "--jwks", jwks);
    expect(record.code, record.out).toBe(0);
    const entries = await prsVerify("inclusion", "--from", `${base}/api/v1/records/${id}/log`, "--log-key", logKey);
    expect(entries.code, entries.out).toBe(0);
    const lookup = await prsVerify("lookup", `${base}/api/v1/lookup?q=${encodeURIComponent("Verified Offline Ltd")}`, "--jwks", jwks);
    expect(lookup.code, lookup.out).toBe(0);
    const check = await prsVerify("check", `${base}/api/v1/check?website=verified-offline.example`, "--jwks", jwks);
    expect(check.code, check.out).toBe(0);

    // More entries, a newer checkpoint: consistent with the saved one, checked from the tiles.
    for (let i = 0; i < 3; i++) await issueLive(liveKey, `Later ${i} Ltd`);
    await until("a newer checkpoint", async () => {
      const now = await (await fetch(`${base}/log/checkpoint`)).text();
      return now !== fs.readFileSync(oldCheckpoint, "utf8") ? now : undefined;
    }, 15_000, 150);
    const consistent = await prsVerify("consistency", "--old", oldCheckpoint, "--log", base, "--log-key", logKey);
    expect(consistent.code, consistent.out).toBe(0);

    // A changed byte in a saved answer fails.
    const signed = (await call("GET", `/api/v1/records/${id}/status`)).body;
    const forged = await prsVerify("status", save("forged.json", { ...signed, subject: "Someone Else Ltd" }), "--jwks", jwks, "--log-key", logKey);
    expect(forged.code, forged.out).toBe(1);
  });

  it("the status and the monitor catch a revocation undone directly in the database", async () => {
    const base = baseUrl();
    const logKey = `${base}/log/key`;
    const { liveKey } = await newLiveAccount();
    const id = (await issueLive(liveKey, "Undone Revocation Ltd")).verification_id as string;
    const state = path.join(tmp, "monitor-state.json");
    const first = await prsVerify("monitor", "--log", base, "--log-key", logKey, "--state", state, "--once", "--json");
    expect([0, 1]).toContain(first.code); // other tests' records may already contradict; this one is new
    const rev = await call("POST", `/api/v1/records/${id}/lifecycle`, { key: liveKey, body: { operation: "revoke", reason: "fraud" } });
    expect(rev.status).toBe(200);
    // Polled on the log endpoint, not the status: a cached status would hide the edit below for a minute.
    await until("the revocation in a checkpoint", async () => {
      const log = (await call("GET", `/api/v1/records/${id}/log`)).body;
      return log.entries.length === 2 ? log : undefined;
    }, 15_000, 150);
    await withServerDb((sql) => sql`update records set status = 'active' where id = ${id}`);

    const status = await prsVerify("status", `${base}/api/v1/records/${id}/status`, "--log-key", logKey);
    expect(status.code, status.out).toBe(1);
    expect(status.out).toMatch(/revoked/);
    const monitor = await prsVerify("monitor", "--log", base, "--log-key", logKey, "--state", state, "--once");
    expect(monitor.code, monitor.out).toBe(1);
    expect(monitor.out).toContain(id);
  }, 120_000);
});
