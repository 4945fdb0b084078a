// The transparency log's checkpoints (C2SP signed-note and tlog-checkpoint) and their
// witnesses' cosignatures (C2SP tlog-cosignature, Ed25519 cosignature/v1): a checkpoint is
// trusted when the log's key signed it and, with a witness policy, at least `quorum` of the
// witnesses you trust cosigned it — so the log cannot show you a history others did not see.
import { createHash } from "node:crypto";
import { ed25519VerifyStrict, publicKeyProblem } from "./verify.js";

export type NoteKey = { name: string; keyId: Uint8Array; publicKey: Uint8Array };
export type CheckpointPolicy = {
  /** The log's verifier key (GET /log/key): `<origin>+<hash>+<base64(0x01 ‖ key)>`. */
  logKey: string;
  /** Witness vkeys (type 0x04) you trust; lines of other keys are ignored, never counted. */
  witnesses?: readonly string[];
  /** How many of them must have cosigned (default: all of `witnesses`). */
  quorum?: number;
};
export type CheckpointFailure = "bad_key" | "malformed_note" | "bad_signature" | "not_witnessed";
export type CheckpointResult =
  | { valid: true; origin: string; size: number; root_hash: string; cosigned_by: string[] }
  | { valid: false; code: CheckpointFailure; message: string };

const DASH = "\u2014 ";
const sha256 = (...parts: (Uint8Array | string)[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A C2SP vkey of signature type `type` (0x01 a note key, 0x04 an Ed25519 cosigner). Throws saying what is wrong. */
export function parseVkey(vkey: string, type: 0x01 | 0x04): NoteKey {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(vkey.trim());
  if (!m) throw new Error(`${JSON.stringify(vkey.slice(0, 60))} is not a vkey <name>+<8 hex>+<base64 key>`);
  const raw = new Uint8Array(Buffer.from(m[3]!, "base64"));
  if (raw.length !== 33 || raw[0] !== type) throw new Error(`${m[1]}: not an Ed25519 key of type 0x0${type}`);
  const publicKey = raw.slice(1);
  const problem = publicKeyProblem(publicKey);
  if (problem) throw new Error(`${m[1]}: ${problem}`);
  const keyId = sha256(`${m[1]}\n`, Uint8Array.of(type), publicKey).slice(0, 4);
  if (hex(keyId) !== m[2]) throw new Error(`${m[1]}: the key hash ${m[2]} does not match the key`);
  return { name: m[1]!, keyId, publicKey };
}

/** The note's text and its signature lines, or null when it is not a signed note. */
function splitNote(note: unknown): { text: string; lines: { name: string; raw: Uint8Array }[] } | null {
  if (typeof note !== "string" || note.length > 1_000_000) return null;
  const split = note.lastIndexOf("\n\n");
  if (split < 0 || !note.endsWith("\n")) return null;
  const lines = [];
  for (const line of note.slice(split + 2, -1).split("\n")) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/]+=*)$/.exec(line);
    if (!m || !line.startsWith(DASH)) return null;
    lines.push({ name: m[1]!, raw: new Uint8Array(Buffer.from(m[2]!, "base64")) });
  }
  return { text: note.slice(0, split + 1), lines };
}

/** A signed note verified with one key (signed-note): its text, or null. Lines of other keys are ignored; a bad one of this key fails it. */
export async function openNote(note: unknown, vkey: string): Promise<string | null> {
  const key = parseVkey(vkey, 0x01);
  const n = splitNote(note);
  if (!n) return null;
  let ok = false;
  for (const l of n.lines) {
    if (l.name !== key.name || !same(l.raw.slice(0, 4), key.keyId)) continue;
    if (!(await ed25519VerifyStrict(l.raw.slice(4), new TextEncoder().encode(n.text), key.publicKey))) return null;
    ok = true;
  }
  return ok ? n.text : null;
}

/**
 * A checkpoint (e.g. GET /log/checkpoint, or the `checkpoint` of a status's transparency_log):
 * signed by the log key, its origin the key's name, and with `witnesses` given, cosigned by at
 * least `quorum` of them. Duplicate lines of one witness count once. Never throws.
 */
export async function verifyCheckpoint(note: unknown, policy: CheckpointPolicy): Promise<CheckpointResult> {
  let logKey: NoteKey;
  let witnesses: NoteKey[];
  try {
    logKey = parseVkey(policy.logKey, 0x01);
    witnesses = (policy.witnesses ?? []).map((w) => parseVkey(w, 0x04));
  } catch (e) {
    return { valid: false, code: "bad_key", message: (e as Error).message };
  }
  const quorum = policy.quorum ?? witnesses.length;
  if (!Number.isInteger(quorum) || quorum < 0 || quorum > witnesses.length) {
    return { valid: false, code: "bad_key", message: `quorum ${quorum} is not between 0 and the ${witnesses.length} witnesses given` };
  }
  const n = splitNote(note);
  if (!n) return { valid: false, code: "malformed_note", message: "not a signed note (text, a blank line, signature lines)" };
  const body = n.text.slice(0, -1).split("\n");
  const [origin = "", sizeLine = "", rootLine = ""] = body;
  const root = Buffer.from(rootLine, "base64");
  if (body.length < 3 || !/^(0|[1-9][0-9]*)$/.test(sizeLine) || root.length !== 32) return { valid: false, code: "malformed_note", message: "not a checkpoint (origin, size, root hash)" };
  if (origin !== logKey.name) return { valid: false, code: "bad_signature", message: `the checkpoint is of ${origin}, not of the log key's ${logKey.name}` };
  if ((await openNote(note, policy.logKey)) === null) return { valid: false, code: "bad_signature", message: `no valid signature by the log key ${logKey.name}` };
  const cosigned = new Set<string>();
  for (const l of n.lines) {
    const w = witnesses.find((k) => k.name === l.name && same(l.raw.slice(0, 4), k.keyId));
    if (!w) continue;
    const view = Buffer.from(l.raw);
    const time = l.raw.length === 76 ? view.readBigUInt64BE(4) : 0n;
    const msg = new TextEncoder().encode(`cosignature/v1\ntime ${time}\n${n.text}`);
    if (time === 0n || time >= 2n ** 63n || !(await ed25519VerifyStrict(l.raw.slice(12), msg, w.publicKey))) {
      return { valid: false, code: "bad_signature", message: `the cosignature by ${w.name} does not verify over the checkpoint` };
    }
    cosigned.add(w.name);
  }
  if (cosigned.size < quorum) {
    return { valid: false, code: "not_witnessed", message: `${cosigned.size} valid cosignature${cosigned.size === 1 ? "" : "s"} of the ${witnesses.length} trusted witnesses, fewer than the quorum of ${quorum}` };
  }
  return { valid: true, origin, size: Number(sizeLine), root_hash: rootLine, cosigned_by: [...cosigned] };
}
