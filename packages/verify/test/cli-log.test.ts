// End to end, no service needed: a small log built here with node:crypto (test/independent.ts,
// not the package's code), served with node:http, checked by the CLI run as `node bin/prs-verify.js`.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkpointOf, leaf, leafHashOf, type NoteKey, noteKey, path as inclusionPath, proof as consistencyProofOf, serviceKey, tilesOf } from "./independent.js";

const BIN = path.resolve(import.meta.dirname, "../bin/prs-verify.js");
const dir = mkdtempSync(path.join(tmpdir(), "prs-verify-log-"));
const put = (name: string, text: string) => (writeFileSync(path.join(dir, name), text), path.join(dir, name));

function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 20_000 }, (error, out, err) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, out, err });
    });
  });
}

const id = (i: number) => `PRS-TEST${String(i).padStart(16, "0")}`;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();

/** 600 entries: a signing key, 20 records issued, then suspensions and reinstatements; past 300, record 3 revoked and record 4 expired. */
function history(): string[] {
  const leaves = [leaf({ verification_id: null, event: "signing_key_published", status: "active", at: at(0) })];
  const status = new Map<number, string>();
  for (let i = 1; leaves.length < 600; i++) {
    if (i <= 20) {
      leaves.push(leaf({ verification_id: id(i - 1), event: "issued", status: "active", at: at(i) }));
      status.set(i - 1, "active");
    } else if (leaves.length === 350) {
      leaves.push(leaf({ verification_id: id(3), event: "status_changed", status: "revoked", at: at(i) }));
      status.set(3, "revoked");
    } else if (leaves.length === 351) {
      leaves.push(leaf({ verification_id: id(4), event: "status_changed", status: "expired", at: at(i) }));
      status.set(4, "expired");
    } else {
      const r = 5 + (i % 15); // records 5..19 go back and forth
      const next = status.get(r) === "active" ? "suspended" : "active";
      leaves.push(leaf({ verification_id: id(r), event: "status_changed", status: next, at: at(i) }));
      status.set(r, next);
    }
  }
  return leaves;
}

/** Each record's latest status and when it began, read from leaves. */
function latest(leaves: string[]) {
  const out = new Map<string, { status: string; at: string; issued: string }>();
  for (const l of leaves) {
    const v = JSON.parse(l);
    if (v.verification_id) out.set(v.verification_id, { status: v.status, at: v.at, issued: out.get(v.verification_id)?.issued ?? v.at });
  }
  return out;
}

type Log = { leaves: string[]; files: Map<string, Buffer>; checkpoint: string };
const logOf = (origin: string, leaves: string[], key: NoteKey): Log => ({ leaves, files: tilesOf(leaves), checkpoint: checkpointOf(origin, leaves, key) });

const svc = serviceKey();
const all = history();
let server: Server;
let base = "";
let key: NoteKey;
let served: Log; // what <base>/log/ serves now
let fork: Log; // served under <base>/fork/log/
const overrides = new Map<string, Record<string, unknown>>(); // public statuses that differ from the log

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const send = (status: number, body: string | Buffer, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    const logFiles = (log: Log, rest: string) => {
      if (rest === "checkpoint") return send(200, log.checkpoint, "text/plain; charset=utf-8");
      if (rest === "key") return send(200, `${key.vkey}\n`, "text/plain; charset=utf-8");
      const f = log.files.get(rest);
      return f ? send(200, f, "application/octet-stream") : send(404, "not found", "text/plain");
    };
    if (url.pathname.startsWith("/log/")) return logFiles(served, url.pathname.slice(5));
    if (url.pathname.startsWith("/fork/log/")) return logFiles(fork, url.pathname.slice(10));
    if (url.pathname === "/.well-known/jwks.json") return send(200, JSON.stringify(svc.jwks));
    const m = /^\/api\/v1\/records\/([^/]+)\/(status|log)$/.exec(url.pathname);
    const rid = m?.[1] ?? "";
    const logged = latest(served.leaves).get(rid);
    if (!m || !logged) return send(404, JSON.stringify({ error: { code: "record_not_found" } }));
    if (m[2] === "log") {
      const hashes = served.leaves.map(leafHashOf);
      const entries = served.leaves.flatMap((l, index) => (JSON.parse(l).verification_id === rid
        ? [{ index, leaf: l, leaf_hash: hashes[index]!.toString("hex"), tree_size: hashes.length, inclusion_proof: inclusionPath(index, hashes).map((h) => h.toString("hex")) }] : []));
      return send(200, JSON.stringify({ verification_id: rid, checkpoint: served.checkpoint, entries }));
    }
    const answer = { verification_id: rid, status: logged.status, environment: "live", issued_at: logged.issued, status_changed_at: logged.at, as_of: new Date().toISOString(), ...overrides.get(rid) };
    return send(200, JSON.stringify(svc.signWith(answer, "status_signature")));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  key = noteKey(`127.0.0.1:${port}/log`);
  served = logOf(key.name, all.slice(0, 300), key);
  const forked = [...all];
  forked[100] = leaf({ verification_id: id(9), event: "status_changed", status: "suspended", at: "2026-01-01T00:01:40.500Z" });
  fork = logOf(key.name, forked, key);
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("prs-verify against a served log", () => {
  const state = path.join(dir, "monitor-state.json");
  let cp300 = "";

  it("inclusion: a leaf, its index and proof against the checkpoint, with the key read from <base>/log/key", async () => {
    cp300 = put("cp300.txt", served.checkpoint);
    const hashes = served.leaves.map(leafHashOf);
    const leafFile = put("leaf290.json", served.leaves[290]!);
    const proof = inclusionPath(290, hashes).map((h) => h.toString("hex")).join(",");
    const ok = await cli("inclusion", "--checkpoint", cp300, "--log-key", `${base}/log/key`, "--leaf", leafFile, "--index", "290", "--proof", proof);
    expect(ok.out).toMatch(/ok {4}inclusion: leaf 290 is in the tree of 300/);
    expect(ok.code).toBe(0);
    const byHash = await cli("inclusion", "--checkpoint", `${base}/log/checkpoint`, "--log-key", key.vkey, "--leaf-hash", hashes[290]!.toString("hex"), "--index", "290", "--proof", proof, "--json");
    expect(JSON.parse(byHash.out)).toMatchObject({ verified: true, index: 290, tree_size: 300 });

    const wrongIndex = await cli("inclusion", "--checkpoint", cp300, "--log-key", key.vkey, "--leaf", leafFile, "--index", "291", "--proof", proof);
    expect(wrongIndex.code).toBe(1);
    expect(wrongIndex.out).toMatch(/FAIL {2}inclusion: the proof leads to root/);
    const otherKey = await cli("inclusion", "--checkpoint", cp300, "--log-key", noteKey(key.name).vkey, "--leaf", leafFile, "--index", "290", "--proof", proof);
    expect(otherKey.code).toBe(1);
    expect(otherKey.out).toMatch(/FAIL {2}checkpoint signature: no signature by/);
  });

  it("inclusion --from: every entry of a record's log answer", async () => {
    const r = await cli("inclusion", "--from", `${base}/api/v1/records/${id(7)}/log`, "--log-key", key.vkey, "--json");
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({ verified: true, verification_id: id(7), tree_size: 300 });
    expect(report.logged_history.length).toBeGreaterThan(5);
    expect(r.code).toBe(0);

    const answer = JSON.parse(await (await fetch(`${base}/api/v1/records/${id(7)}/log`)).text());
    answer.entries[1].leaf = answer.entries[1].leaf.replace("suspended", "revoked");
    const tampered = await cli("inclusion", "--from", put("log7.json", JSON.stringify(answer)), "--log-key", key.vkey);
    expect(tampered.code).toBe(1);
    expect(tampered.out).toMatch(/FAIL {2}entry \d+ leaf hash: given/);
  });

  it("monitor, first pass: every entry hashes to the checkpoint's root and the public statuses agree", async () => {
    const r = await cli("monitor", "--log", base, "--log-key", `${base}/log/key`, "--state", state, "--once");
    expect(r.out).toMatch(/ok {4}consistency: all 300 entries hash to the checkpoint's root/);
    expect(r.out).toMatch(/ok {4}public status: 20 of 20 records' public status agrees with the log/);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(state, "utf8"))).toMatchObject({ size: 300 });
  });

  it("consistency: the grown log extends the old checkpoint, with a proof built from tiles or given", async () => {
    served = logOf(key.name, all, key);
    const fromTiles = await cli("consistency", "--old", cp300, "--log", base, "--log-key", key.vkey);
    expect(fromTiles.out).toMatch(/note {2}proof: built from \d+ tiles/);
    expect(fromTiles.out).toMatch(/ok {4}consistency: the tree of 300 is a prefix of the tree of 600/);
    expect(fromTiles.code).toBe(0);

    const proof = consistencyProofOf(300, all.map(leafHashOf)).map((h) => h.toString("hex")).join(",");
    const given = await cli("consistency", "--old", cp300, "--new", put("cp600.txt", served.checkpoint), "--log-key", key.vkey, "--proof", proof);
    expect(given.code).toBe(0);
  });

  it("consistency: a forked log signed by the same key is refused", async () => {
    const r = await cli("consistency", "--old", cp300, "--log", `${base}/fork`, "--log-key", key.vkey);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}consistency: the proof leads to old root/);
    // The honest log's proof does not link the fork's checkpoint either.
    const proof = consistencyProofOf(300, all.map(leafHashOf)).map((h) => h.toString("hex")).join(",");
    const given = await cli("consistency", "--old", cp300, "--new", put("fork600.txt", fork.checkpoint), "--log-key", key.vkey, "--proof", proof);
    expect(given.code).toBe(1);
  });

  it("monitor, second pass: the 300 new entries extend the saved tree", async () => {
    const r = await cli("monitor", "--log", base, "--log-key", key.vkey, "--state", state);
    expect(r.out).toMatch(/ok {4}consistency: the 300 new entries extend the saved tree of 300/);
    expect(r.code).toBe(0);
    const saved = JSON.parse(readFileSync(state, "utf8"));
    expect(saved.size).toBe(600);
    expect(saved.records[id(3)]).toMatchObject({ status: "revoked", index: 350 });
  });

  it("monitor: a public status contradicting the log is reported (exit 1); a fresh expiry is not", async () => {
    const logged = latest(all);
    const active = [...logged.entries()].find(([, v]) => v.status === "active")![0];
    overrides.set(id(3), { status: "active" }); // revoked in the log
    overrides.set(active, { status: "expired", status_changed_at: new Date(Date.now() - 10_000).toISOString() });
    const r = await cli("monitor", "--log", base, "--log-key", key.vkey, "--state", state, "--json");
    const report = JSON.parse(r.out);
    expect(r.code).toBe(1);
    expect(report.contradictions).toBe(1);
    expect(report.checks).toContainEqual(expect.objectContaining({ check: id(3), result: "fail", detail: expect.stringMatching(/says revoked .*a final status.*the service says active/) }));
    expect(report.checks).toContainEqual(expect.objectContaining({ check: active, result: "note", detail: expect.stringMatching(/^expiry not yet logged/) }));
    overrides.clear();
  });

  it("monitor: a log that rewrote history is caught and the saved state kept", async () => {
    const before = readFileSync(state, "utf8");
    served = { ...fork, leaves: [...fork.leaves, leaf({ verification_id: id(1), event: "status_changed", status: "suspended", at: at(999) })] };
    served = logOf(key.name, served.leaves, key);
    const r = await cli("monitor", "--log", base, "--log-key", key.vkey, "--state", state);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}consistency: the saved tree of 600 plus the 1 new entries hashes to .* the log forked or rewrote history/);
    expect(readFileSync(state, "utf8")).toBe(before);
  });

  it("monitor: a checkpoint signed by another key fails; a bad state file is an input error", async () => {
    served = logOf(key.name, all, noteKey(key.name));
    const r = await cli("monitor", "--log", base, "--log-key", key.vkey, "--state", state);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}checkpoint signature/);
    const bad = await cli("monitor", "--log", base, "--log-key", key.vkey, "--state", put("bad-state.json", "{}"));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not a prs-verify monitor state/);
  });
});
