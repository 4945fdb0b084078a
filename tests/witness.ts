import { createHash, createPrivateKey, createPublicKey, randomBytes, sign as nodeSign, verify as nodeVerify, type KeyObject } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyConsistency } from "./tlog-check";

/**
 * A transparency-log witness for tests, written from C2SP tlog-witness, tlog-cosignature and
 * signed-note with node:crypto only (the consistency check is tests/tlog-check.ts, not
 * lib/tlog). It serves, on 127.0.0.1:
 *   POST <prefix>/add-checkpoint          200 cosignature / 400 / 403 / 404 / 409 (text/x.tlog.size) / 422
 *   GET  <prefix>/<sha256(origin) hex>/checkpoint   the latest cosigned checkpoint, or 404
 * and keeps, per origin, the latest checkpoint it cosigned in its own JSON file, so a
 * restarted witness remembers. `seed` pre-loads that state (e.g. another tree of the log:
 * a fork) when the file does not exist yet. `down` makes it answer 503 to everything.
 */
export type WitnessState = Record<string, { size: number; root: string; note: string }>;

export type TestWitness = {
  name: string; vkey: string; url: string; stateFile: string;
  state: () => WitnessState; requests: () => { status: number; body: string }[];
  setDown: (down: boolean) => void;
  /** Answer add-checkpoint with `fn(line)` instead of the cosignature line (a lying or broken witness); null: honest again. */
  setTamper: (fn: ((line: string) => string) | null) => void;
  close: () => Promise<void>;
};

const sha256 = (...parts: (Buffer | string)[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};

type LogKey = { name: string; id: Buffer; key: KeyObject };

/** A log's vkey (type 0x01): `<origin>+<hash>+<base64(0x01 ‖ key)>`. */
function parseLogVkey(vkey: string): LogKey {
  const [name, idHex, ...rest] = vkey.trim().split("+");
  const raw = Buffer.from(rest.join("+"), "base64");
  if (raw.length !== 33 || raw[0] !== 0x01) throw new Error("not an Ed25519 note vkey");
  const id = sha256(`${name}\n`, Buffer.from([0x01]), raw.subarray(1)).subarray(0, 4);
  if (id.toString("hex") !== idHex) throw new Error("vkey hash mismatch");
  return { name: name!, id, key: createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.subarray(1).toString("base64url") }, format: "jwk" }) };
}

/** An Ed25519 key pair from a 32-byte seed, and its cosigner vkey (type 0x04). */
export function cosignerKey(name: string, seed: Buffer = randomBytes(32)) {
  const priv = createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" });
  const pub = Buffer.from((createPublicKey(priv).export({ format: "jwk" }) as { x: string }).x, "base64url");
  const id = sha256(`${name}\n`, Buffer.from([0x04]), pub).subarray(0, 4);
  return { priv, pub, id, vkey: `${name}+${id.toString("hex")}+${Buffer.concat([Buffer.from([0x04]), pub]).toString("base64")}` };
}

/** A cosignature line per tlog-cosignature (Ed25519, cosignature/v1) over a checkpoint body. */
export function cosign(name: string, key: ReturnType<typeof cosignerKey>, body: string, time: number): string {
  const sig = nodeSign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${body}`, "utf8"), key.priv);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(time));
  return `\u2014 ${name} ${Buffer.concat([key.id, ts, sig]).toString("base64")}\n`;
}

/** A witness made in a test: its name, vkey (type 0x04) and a function giving its cosignature line (no newline) over a checkpoint body. */
export function testCosigner(name: string) {
  const key = cosignerKey(name);
  return { name, vkey: key.vkey, cosign: (body: string, time: number) => cosign(name, key, body, time).slice(0, -1) };
}

class Answer extends Error {
  constructor(readonly status: number, readonly body: string, readonly type = "text/plain; charset=utf-8") {
    super(body);
  }
}

export async function startWitness(opts: { name: string; logVkeys: string[]; stateFile: string; seed?: WitnessState; keySeed?: Buffer }): Promise<TestWitness> {
  const key = cosignerKey(opts.name, opts.keySeed);
  const logs = new Map(opts.logVkeys.map((v) => [parseLogVkey(v).name, parseLogVkey(v)] as const));
  if (!fs.existsSync(opts.stateFile)) fs.writeFileSync(opts.stateFile, JSON.stringify(opts.seed ?? {}));
  const load = (): WitnessState => JSON.parse(fs.readFileSync(opts.stateFile, "utf8")) as WitnessState;
  const save = (s: WitnessState) => {
    const tmp = `${opts.stateFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(s));
    fs.renameSync(tmp, opts.stateFile);
  };
  let down = false;
  let tamper: ((line: string) => string) | null = null;
  const seen: { status: number; body: string }[] = [];

  /** Everything from parsing to the state update is synchronous: check-and-update is atomic. */
  function addCheckpoint(body: string): string {
    const nl = body.indexOf("\n");
    const m = /^old (0|[1-9][0-9]*)$/.exec(body.slice(0, nl));
    if (nl < 0 || !m) throw new Answer(400, "the first line is not old <size>");
    const old = Number(m[1]);
    const proof: Buffer[] = [];
    let at = nl + 1;
    for (;;) {
      const end = body.indexOf("\n", at);
      if (end < 0) throw new Answer(400, "no empty line before the checkpoint");
      const line = body.slice(at, end);
      at = end + 1;
      if (line === "") break;
      const h = Buffer.from(line, "base64");
      if (h.length !== 32 || h.toString("base64") !== line) throw new Answer(400, "a proof line is not base64 of 32 bytes");
      proof.push(h);
      if (proof.length > 63) throw new Answer(400, "more than 63 proof lines");
    }
    const note = body.slice(at);
    const split = note.indexOf("\n\n");
    if (split < 0) throw new Answer(400, "the checkpoint has no signatures");
    const text = note.slice(0, split + 1);
    const lines = text.slice(0, -1).split("\n");
    if (lines.length < 3 || !/^(0|[1-9][0-9]*)$/.test(lines[1]!)) throw new Answer(400, "not a checkpoint");
    const [origin, sizeLine, rootLine] = lines as [string, string, string];
    const size = Number(sizeLine);
    const root = Buffer.from(rootLine, "base64");
    if (root.length !== 32) throw new Answer(400, "the root hash is not 32 bytes");
    const log = logs.get(origin);
    if (!log) throw new Answer(404, "unknown origin");
    // signed-note: lines of unknown keys ignored; a bad one of the trusted key makes the note malformed.
    let signed = false;
    for (const sl of note.slice(split + 2).split("\n").filter(Boolean)) {
      const sm = /^\u2014 (\S+) (\S+)$/.exec(sl);
      if (!sm) throw new Answer(400, "malformed signature line");
      const raw = Buffer.from(sm[2]!, "base64");
      if (sm[1] !== log.name || !raw.subarray(0, 4).equals(log.id)) continue;
      if (raw.length !== 68 || !nodeVerify(null, Buffer.from(text, "utf8"), log.key, raw.subarray(4))) throw new Answer(403, "the log's signature does not verify");
      signed = true;
    }
    if (!signed) throw new Answer(403, "no signature by the log's key");
    if (old > size) throw new Answer(400, "old size is larger than the checkpoint's");
    const state = load();
    const prev = state[origin];
    const prevSize = prev?.size ?? 0;
    if (old !== prevSize) throw new Answer(409, `${prevSize}\n`, "text/x.tlog.size");
    if (size === 0 && !root.equals(sha256())) throw new Answer(422, "a tree of size 0 has the empty root");
    if (old === 0 && proof.length > 0) throw new Answer(422, "a proof from size 0 must be empty");
    if (prev && old > 0) {
      const prevRoot = Buffer.from(prev.root, "base64");
      if (old === size ? !prevRoot.equals(root) || proof.length > 0 : !verifyConsistency(old, size, prevRoot, root, proof)) {
        throw new Answer(422, "the checkpoint is not consistent with the one cosigned before");
      }
    }
    const line = cosign(opts.name, key, text, Math.floor(Date.now() / 1000));
    state[origin] = { size, root: root.toString("base64"), note: note + line };
    save(state);
    return line;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let answer: Answer;
      if (down) answer = new Answer(503, "down for the test");
      else if (req.method === "POST" && req.url === "/add-checkpoint") {
        try {
          const line = addCheckpoint(body);
          answer = new Answer(200, tamper ? tamper(line) : line);
        } catch (e) {
          if (!(e instanceof Answer)) throw e;
          answer = e;
        }
      } else if (req.method === "GET" && /^\/[0-9a-f]{64}\/checkpoint$/.test(req.url ?? "")) {
        const hash = req.url!.slice(1, 65);
        const hit = Object.entries(load()).find(([origin]) => sha256(origin).toString("hex") === hash);
        answer = hit ? new Answer(200, hit[1].note) : new Answer(404, "never cosigned that log");
      } else answer = new Answer(404, "not found");
      seen.push({ status: answer.status, body });
      res.writeHead(answer.status, { "Content-Type": answer.type }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name: opts.name, vkey: key.vkey, url: `http://127.0.0.1:${port}`, stateFile: opts.stateFile,
    state: load, requests: () => [...seen], setDown: (d) => void (down = d), setTamper: (fn) => void (tamper = fn),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
