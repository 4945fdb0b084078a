import { spawn } from "node:child_process";
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign as nodeSign, verify as nodeVerify } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { verifyCheckpoint as sdkVerifyCheckpoint, verifyStatus as sdkVerifyStatus } from "../../packages/sdk/src/index";
import { adminViaServer } from "../admin-client";
import { until } from "../helpers";
import { useOwnDatabase } from "../own-database";
import { freePort, startServer, stopStartedServers, type StartedServer } from "../server";
import { verifyCheckpoint } from "../tlog-check";
import { startWitness, type TestWitness } from "../witness";

/*
 * Witnessed checkpoints (C2SP tlog-witness) against a server of its own, whose log key the
 * test sets, and three test witnesses (tests/witness.ts), quorum 2. w3 was pre-seeded with
 * another tree of this log: it refuses, and the log reaches quorum with w1 and w2. Every
 * cosignature is checked here with node:crypto, from tlog-cosignature's recipe.
 */
const bin = path.resolve(import.meta.dirname, "..", "..", "packages", "verify", "bin", "prs-verify.js");
const METRICS_TOKEN = "witness-test-metrics-token-0123456789";

let dataDir: string;
let server: StartedServer;
let db: { drop: () => Promise<void> };
let origin: string;
let logVkey: string;
let logSeed: Buffer;
const w: TestWitness[] = [];
const keySeeds = [randomBytes(32), randomBytes(32), randomBytes(32)];

const sha256 = (...p: (Buffer | string)[]) => p.reduce((h, x) => h.update(x), createHash("sha256")).digest();
const privateFromSeed = (seed: Buffer) => createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" });

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-witness-"));
  db = await useOwnDatabase("witness");
  const port = await freePort();
  origin = `127.0.0.1:${port}/log`;
  logSeed = randomBytes(32);
  const pub = Buffer.from((createPublicKey(privateFromSeed(logSeed)).export({ format: "jwk" }) as { x: string }).x, "base64url");
  logVkey = `${origin}+${sha256(`${origin}\n`, Buffer.from([1]), pub).subarray(0, 4).toString("hex")}+${Buffer.concat([Buffer.from([1]), pub]).toString("base64")}`;
  for (const i of [1, 2, 3]) {
    w.push(await startWitness({
      name: `witness.test/w${i}`, logVkeys: [logVkey], stateFile: path.join(dataDir, `w${i}.json`), keySeed: keySeeds[i - 1],
      // w3 cosigned another tree of this log at size 1 (a fork the log never had).
      seed: i === 3 ? { [origin]: { size: 1, root: randomBytes(32).toString("base64"), note: "" } } : undefined,
    }));
  }
  const env: Record<string, string> = {
    ...inject("serverEnv"), PORT: String(port), DATA_DIR: dataDir, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_NOTE_KEY: logSeed.toString("base64"), LOG_CHECKPOINT_INTERVAL_MS: "150", LOG_WITNESS_TIMEOUT_MS: "2000", METRICS_TOKEN,
    LOG_WITNESSES: JSON.stringify(w.map((x) => ({ name: x.name, vkey: x.vkey, url: x.url }))), LOG_WITNESS_QUORUM: "2",
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  else delete env.DATABASE_URL;
  server = await startServer(env, path.join(dataDir, "server.log"));
}, 90_000);

afterAll(async () => {
  await stopStartedServers();
  await Promise.all(w.map((x) => x.close()));
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The witnesses whose cosignature lines on `note` verify (node:crypto, cosignature/v1 over the note's body). */
function cosignedBy(note: string): string[] {
  const split = note.indexOf("\n\n");
  const body = note.slice(0, split + 1);
  const out: string[] = [];
  for (const line of note.slice(split + 2).split("\n").filter(Boolean)) {
    const [, name, b64] = /^\u2014 (\S+) (\S+)$/.exec(line)!;
    const wit = w.find((x) => x.name === name);
    if (!wit) continue;
    const key = Buffer.from(wit.vkey.split("+").slice(2).join("+"), "base64"); // base64 may hold "+"
    const raw = Buffer.from(b64!, "base64");
    expect(raw.subarray(0, 4).toString("hex")).toBe(wit.vkey.split("+")[1]);
    expect(sha256(`${name}\n`, Buffer.from([4]), key.subarray(1)).subarray(0, 4).equals(raw.subarray(0, 4))).toBe(true);
    const t = raw.readBigUInt64BE(4);
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(600);
    const pub = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: key.subarray(1).toString("base64url") }, format: "jwk" });
    if (nodeVerify(null, Buffer.from(`cosignature/v1\ntime ${t}\n${body}`), pub, raw.subarray(12))) out.push(name!);
  }
  return out;
}

const served = async () => {
  const r = await fetch(`${server.baseUrl}/log/checkpoint`);
  return r.status === 200 ? await r.text() : null;
};

const cli = (...args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("close", (code) => resolve({ code: code ?? -1, out }));
  });
const policy = () => [...w.flatMap((x) => ["--witness", x.vkey]), "--quorum", "2"];
const tmp = (name: string, text: string) => {
  const f = path.join(dataDir, name);
  fs.writeFileSync(f, text);
  return f;
};

async function liveRecord(subject: string) {
  const admin = (...argv: string[]) => adminViaServer(dataDir, server.baseUrl, argv);
  const a = await admin("account", "create", "--email", `w-${randomBytes(4).toString("hex")}@example.test`);
  await admin("account", "confirm-email", "--account", a.account_id);
  await admin("plan", "set", "--account", a.account_id, "--plan", "growth");
  const key = (await admin("key", "create", "--account", a.account_id, "--env", "live")).key as string;
  const res = await fetch(`${server.baseUrl}/api/v1/records`, {
    method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ subject, claim_type: "company_status", claim: `${subject} is active.` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { verification_id: string }).verification_id;
}

const metric = async (name: string, witness: string) => {
  const text = await (await fetch(`${server.baseUrl}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(new RegExp(`^${name}\\{witness="${witness.replace(/[./]/g, "\\$&")}"\\} (\\S+)$`, "m").exec(text)?.[1]);
};

describe("witnessed checkpoints", () => {
  let first: string;

  it("serves the log's checkpoint with the cosignatures of w1 and w2, as each witness's monitoring endpoint shows it", async () => {
    first = await until("a cosigned checkpoint", served, 20_000);
    const cp = verifyCheckpoint(first, logVkey);
    expect(cp.origin).toBe(origin);
    expect(cosignedBy(first).sort()).toEqual(["witness.test/w1", "witness.test/w2"]);
    // The log's line first, then one line per witness, nothing else.
    expect(first.split("\n\n")[1]!.trim().split("\n").map((l) => l.split(" ")[1])).toEqual([origin, "witness.test/w1", "witness.test/w2"]);
    for (const x of w.slice(0, 2)) {
      const r = await fetch(`${x.url}/${sha256(origin).toString("hex")}/checkpoint`);
      expect(r.status).toBe(200);
      const theirs = await r.text();
      expect(theirs.split("\n\n")[0]).toBe(first.split("\n\n")[0]);
      expect(cosignedBy(theirs)).toEqual([x.name]);
    }
  });

  it("a witness that saw another tree refuses (409, then 422), keeps its state, and the log records the refusal", async () => {
    const statuses = w[2]!.requests().map((r) => r.status);
    expect(statuses).toContain(409);
    expect(statuses).toContain(422);
    expect(statuses).not.toContain(200);
    expect(w[2]!.state()[origin]!.size).toBe(1);
    // The log went on with old = 1 after the 409 (its body names the witness's size), with a proof.
    expect(w[2]!.requests().some((r) => r.status === 422 && r.body.startsWith("old 1\n"))).toBe(true);
    expect(await metric("prs_tlog_witness_failing", "witness.test/w3")).toBe(1);
    expect(await metric("prs_tlog_witness_failing", "witness.test/w1")).toBe(0);
    expect(await metric("prs_tlog_witness_size", "witness.test/w1")).toBe(verifyCheckpoint(first, logVkey).size);
  });

  let recordId: string;
  /**
   * Wait until the checkpointer has gone round again. Rounds run one at a time (integrate, then
   * ask the witnesses side by side and publish what has a quorum: lib/server/boot.ts,
   * lib/tlog/witness.ts), and each asks w3 once — it refuses every time, so it is asked every
   * round. Its n-th further request may still be the current round's first: the rounds before
   * the last n - 1 are over, publishing included.
   */
  const rounds = (n: number) => {
    const asked = w[2]!.requests().length;
    return until(`${n} more checkpoint rounds (w3 asked again)`, () => w[2]!.requests().length >= asked + n, 10_000, 20);
  };
  it("with two of three witnesses refusing or down, the published checkpoint does not advance; it does once quorum is back", async () => {
    w[1]!.setDown(true);
    const before = verifyCheckpoint((await served())!, logVkey).size;
    recordId = await liveRecord("Witnessed Widgets Ltd");
    // w1 cosigns the newer tree: the log signed it…
    await until("w1 to cosign the new tree", () => (w[0]!.state()[origin]!.size > before ? true : undefined), 10_000);
    await rounds(3); // the round in which w1 cosigned, and the next, are over
    // …but publishes nothing past the witnessed one: the record's entry stays pending everywhere.
    expect(verifyCheckpoint((await served())!, logVkey).size).toBe(before);
    const status = await (await fetch(`${server.baseUrl}/api/v1/records/${recordId}/status`)).json();
    expect(status.transparency_log).toBeNull();
    const logAnswer = await (await fetch(`${server.baseUrl}/api/v1/records/${recordId}/log`)).json();
    expect(logAnswer.checkpoint.split("\n")[1]).toBe(String(before));
    expect(logAnswer.pending_entries).toBe(1);
    expect(await metric("prs_tlog_witness_failing", "witness.test/w2")).toBe(1);
    // Asked every round, but warned about once per reason (w3: the same 422 all along).
    const warnings = fs.readFileSync(path.join(dataDir, "server.log"), "utf8").split("\n").filter((l) => l.includes("witness witness.test/w3 did not cosign"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/422 from add-checkpoint/);

    // Back, but its cosignature does not verify (one bit of the signature flipped): refused, still no quorum.
    w[1]!.setTamper((line) => {
      const [dash, name, b64] = line.trim().split(" ");
      const raw = Buffer.from(b64!, "base64");
      raw[raw.length - 1]! ^= 1;
      return `${dash} ${name} ${raw.toString("base64")}\n`;
    });
    w[1]!.setDown(false);
    await until("w2 to answer 200", () => (w[1]!.requests().some((r) => r.status === 200 && r.body.startsWith(`old ${before}\n`)) ? true : undefined), 10_000);
    await rounds(3); // the round that got the bad cosignature, and the next, are over
    expect(verifyCheckpoint((await served())!, logVkey).size).toBe(before);
    const refusals = fs.readFileSync(path.join(dataDir, "server.log"), "utf8").split("\n").filter((l) => l.includes("witness witness.test/w2 did not cosign"));
    expect(refusals.some((l) => l.includes("the cosignature by witness.test/w2 does not verify over the checkpoint"))).toBe(true);

    // Honest again: the witness moved on (it cosigned, in its view), so the log's next request is a 409, and the retry from its size succeeds.
    w[1]!.setTamper(null);
    const next = await until("the checkpoint to advance", async () => {
      const n = await served();
      return n && verifyCheckpoint(n, logVkey).size > before ? n : undefined;
    }, 10_000);
    expect(cosignedBy(next).sort()).toEqual(["witness.test/w1", "witness.test/w2"]);
    // w2 was sent the consistency proof from the size it had cosigned; after its lie, a 409 and a retry from the size it named.
    expect(w[1]!.requests().some((r) => r.status === 200 && r.body.startsWith(`old ${before}\n`) && r.body.split("\n")[1] !== "")).toBe(true);
    expect(w[1]!.requests().map((r) => r.status)).toContain(409);
    const st = await until("the status to carry the entry", async () => {
      const s = await (await fetch(`${server.baseUrl}/api/v1/records/${recordId}/status`)).json();
      return s.transparency_log ? s : undefined;
    }, 5_000);
    expect(cosignedBy(st.transparency_log.checkpoint).sort()).toEqual(["witness.test/w1", "witness.test/w2"]);
  });

  it("prs-verify with the policy accepts the served checkpoint and refuses an uncosigned or forked one", async () => {
    const logUrl = `${server.baseUrl}/api/v1/records/${recordId}/log`;
    const ok = await cli("inclusion", "--from", logUrl, "--log-key", logVkey, ...policy());
    expect(ok.out).toMatch(/2 valid cosignatures of the 3 trusted witnesses/);
    expect(ok.code).toBe(0);
    const status = await cli("status", `${server.baseUrl}/api/v1/records/${recordId}/status`, "--log-key", logVkey, ...policy());
    expect(status.code).toBe(0);

    const answer = await (await fetch(logUrl)).json();
    const note: string = answer.checkpoint;
    const [body, sigs] = note.split("\n\n") as [string, string];
    const logLine = sigs.split("\n")[0]!;
    const bare = tmp("bare.json", JSON.stringify({ ...answer, checkpoint: `${body}\n\n${logLine}\n` }));
    const uncosigned = await cli("inclusion", "--from", bare, "--log-key", logVkey, ...policy());
    expect(uncosigned.code).toBe(1);
    expect(uncosigned.out).toMatch(/0 valid cosignatures of the 3 trusted witnesses, fewer than the quorum of 2/);

    // One witness's line twice and a stranger's line: counted once, and not at all.
    const stranger = `\u2014 witness.test/w9 ${randomBytes(76).toString("base64")}`;
    const w1Line = sigs.split("\n").find((l) => l.includes("witness.test/w1"))!;
    const padded = tmp("padded.json", JSON.stringify({ ...answer, checkpoint: `${body}\n\n${logLine}\n${w1Line}\n${w1Line}\n${stranger}\n` }));
    const short = await cli("inclusion", "--from", padded, "--log-key", logVkey, ...policy());
    expect(short.code).toBe(1);
    expect(short.out).toMatch(/1 valid cosignature of the 3 trusted witnesses \(witness\.test\/w1\), fewer than the quorum of 2/);

    // A fork: another tree of the same size, signed with the log's own key (a compromised log), with the real cosignatures copied.
    const [o, size] = body.split("\n");
    const forkBody = `${o}\n${size}\n${randomBytes(32).toString("base64")}\n`;
    const sig = nodeSign(null, Buffer.from(forkBody), privateFromSeed(logSeed));
    const forkLogLine = `\u2014 ${origin} ${Buffer.concat([Buffer.from(logLine.split(" ")[2]!, "base64").subarray(0, 4), sig]).toString("base64")}`;
    const copied = sigs.trim().split("\n").slice(1).join("\n");
    for (const [name, fork] of [["fork-copied", `${forkBody}\n${forkLogLine}\n${copied}\n`], ["fork-bare", `${forkBody}\n${forkLogLine}\n`]] as const) {
      const f = tmp(`${name}.txt`, fork);
      expect(verifyCheckpoint(fork, logVkey).size).toBe(Number(size)); // the log's signature on it is valid
      const r = await cli("inclusion", "--checkpoint", f, "--log-key", logVkey, "--leaf-hash", "00".repeat(32), "--index", "0", "--proof", "", ...policy());
      expect(r.code).toBe(1);
      expect(r.out).toMatch(name === "fork-copied" ? /cosignature by witness\.test\/w1\+[0-9a-f]{8} does not verify/ : /0 valid cosignatures/);
    }
    const consistency = await cli("consistency", "--old", tmp("first.txt", first), "--new", tmp("fork.txt", `${forkBody}\n${forkLogLine}\n`), "--log-key", logVkey, ...policy());
    expect(consistency.code).toBe(1);

    // The monitor: a witnessed checkpoint is taken in; one short of the quorum asked for is not saved.
    const state = path.join(dataDir, "monitor.json");
    const strict = await cli("monitor", "--log", server.baseUrl, "--log-key", logVkey, "--state", state, "--once", ...w.flatMap((x) => ["--witness", x.vkey]), "--quorum", "3");
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/2 valid cosignatures of the 3 trusted witnesses .*fewer than the quorum of 3/);
    expect(fs.existsSync(state)).toBe(false);
    const monitored = await cli("monitor", "--log", server.baseUrl, "--log-key", logVkey, "--state", state, "--once", ...policy());
    expect(monitored.out).toMatch(/checkpoint witnesses/);
    expect(monitored.code).toBe(0);

    // The SDK, the same policy.
    const vkeys = w.map((x) => x.vkey);
    expect(await sdkVerifyCheckpoint(note, { logKey: logVkey, witnesses: vkeys, quorum: 2 })).toMatchObject({ valid: true, cosigned_by: ["witness.test/w1", "witness.test/w2"] });
    expect(await sdkVerifyCheckpoint(`${body}\n\n${logLine}\n`, { logKey: logVkey, witnesses: vkeys, quorum: 2 })).toMatchObject({ valid: false, code: "not_witnessed" });
    expect(await sdkVerifyCheckpoint(`${forkBody}\n${forkLogLine}\n${copied}\n`, { logKey: logVkey, witnesses: vkeys, quorum: 2 })).toMatchObject({ valid: false, code: "bad_signature" });
    const jwks = await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json();
    const st = await (await fetch(`${server.baseUrl}/api/v1/records/${recordId}/status`)).json();
    expect(await sdkVerifyStatus(st, jwks, { log: { logKey: logVkey, witnesses: vkeys, quorum: 2 } })).toMatchObject({ valid: true });
    expect(await sdkVerifyStatus(st, jwks, { log: { logKey: logVkey, witnesses: vkeys, quorum: 3 } })).toMatchObject({ valid: false, code: "not_witnessed" });
  });

  it("a restarted witness remembers what it cosigned, and answers the spec's refusals", async () => {
    const state = w[0]!.state()[origin]!;
    await w[0]!.close();
    const again = await startWitness({ name: "witness.test/w1", logVkeys: [logVkey], stateFile: w[0]!.stateFile, keySeed: keySeeds[0] });
    w[0] = again;
    const post = (body: string) => fetch(`${again.url}/add-checkpoint`, { method: "POST", body });
    // Asked with old 0, it answers 409 with the size it kept.
    const r = await post(`old 0\n\n${first}`);
    expect(r.status).toBe(409);
    expect(r.headers.get("content-type")).toBe("text/x.tlog.size");
    expect(await r.text()).toBe(`${state.size}\n`);
    const [body, sigs] = first.split("\n\n") as [string, string];
    expect((await post(`old 0\n\n${body.replace(origin, "other.example/log")}\n\n${sigs}`)).status).toBe(404); // unknown origin
    expect((await post(`old 0\n\n${body.replace(/\n[0-9]+\n/, "\n999999\n")}\n\n${sigs}`)).status).toBe(403); // the log's signature fails
    expect((await post(`old 999999\n\n${first}`)).status).toBe(400); // old larger than the checkpoint
    // Another tree of the size it cosigned, signed with the log's key: 422, and its state stays.
    const forkBody = `${origin}\n${state.size}\n${randomBytes(32).toString("base64")}\n`;
    const logId = Buffer.from(sigs.split("\n")[0]!.split(" ")[2]!, "base64").subarray(0, 4);
    const forkLine = `\u2014 ${origin} ${Buffer.concat([logId, nodeSign(null, Buffer.from(forkBody), privateFromSeed(logSeed))]).toString("base64")}\n`;
    expect((await post(`old ${state.size}\n\n${forkBody}\n${forkLine}`)).status).toBe(422);
    expect(again.state()[origin]!.size).toBe(state.size);
  });
});
