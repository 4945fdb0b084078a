import { verifyEd25519 } from "./verify-answer";

/*
 * The badge's witness policy (docs/embed.md): with `data-witness="<vkey> <vkey> …"` (C2SP vkeys
 * of type 0x04) and `data-witness-quorum="N"` (default: all of them) on the badge's element,
 * a status is shown only when the checkpoint of its transparency_log carries valid Ed25519
 * `cosignature/v1` cosignatures (C2SP tlog-cosignature) of at least N of those witnesses over
 * the checkpoint the status proves its entry against. Lines of other keys are ignored, never
 * counted; several lines of one witness count once. Browser only: WebCrypto SHA-256, atob.
 */
export type NoteKey = { name: string; keyId: Uint8Array; publicKey: Uint8Array };
export type WitnessPolicy = { witnesses: NoteKey[]; quorum: number };

const enc = new TextEncoder();
const b64 = (s: string): Uint8Array | null => {
  if (!/^[A-Za-z0-9+/]+=*$/.test(s)) return null;
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
};
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** A C2SP vkey of signature type `type`, its key ID checked (SHA-256(name ‖ "\n" ‖ type ‖ key)[:4]); null when it is not one. */
export async function parseVkey(vkey: string, type: number): Promise<NoteKey | null> {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(vkey.trim());
  const raw = m ? b64(m[3]!) : null;
  if (!m || !raw || raw.length !== 33 || raw[0] !== type || !globalThis.crypto?.subtle) return null;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array([...enc.encode(`${m[1]}\n`), ...raw])));
  return hex(digest.subarray(0, 4)) === m[2] ? { name: m[1]!, keyId: digest.slice(0, 4), publicKey: raw.slice(1) } : null;
}

/** The policy of a badge element's attributes; null without `data-witness`, "invalid" for a malformed one (never shown green). */
export async function policyOf(host: Element): Promise<WitnessPolicy | "invalid" | null> {
  const attr = host.getAttribute("data-witness");
  if (attr === null) return null;
  const keys = await Promise.all(attr.split(/[\s,]+/).filter(Boolean).map((v) => parseVkey(v, 0x04)));
  const q = host.getAttribute("data-witness-quorum");
  const quorum = q === null ? keys.length : /^[1-9][0-9]{0,2}$/.test(q) ? Number(q) : 0;
  if (keys.length === 0 || keys.some((k) => !k) || quorum < 1 || quorum > keys.length) return "invalid";
  return { witnesses: keys as NoteKey[], quorum };
}

/** The text of a signed note and its signature lines (name, decoded bytes); null when malformed. */
export function splitNote(note: unknown): { text: string; lines: { name: string; raw: Uint8Array }[] } | null {
  if (typeof note !== "string" || !note.endsWith("\n")) return null;
  const at = note.lastIndexOf("\n\n");
  if (at < 0) return null;
  const lines = [];
  for (const l of note.slice(at + 2, -1).split("\n")) {
    const m = /^\u2014 (\S+) (\S+)$/.exec(l);
    const raw = m ? b64(m[2]!) : null;
    if (!m || !raw) return null;
    lines.push({ name: m[1]!, raw });
  }
  return { text: note.slice(0, at + 1), lines };
}

/**
 * How many of the policy's witnesses validly cosigned the note; -1 when a line of one of them
 * does not verify (a malformed note) or the note is not one. Null without WebCrypto.
 */
export async function cosignatureCount(note: unknown, policy: WitnessPolicy): Promise<number | null> {
  const n = splitNote(note);
  if (!n) return -1;
  const cosigned = new Set<string>();
  for (const l of n.lines) {
    const w = policy.witnesses.find((k) => k.name === l.name && same(k.keyId, l.raw.subarray(0, 4)));
    if (!w) continue;
    if (l.raw.length !== 76) return -1;
    const time = new DataView(l.raw.buffer, l.raw.byteOffset + 4, 8).getBigUint64(0);
    const ok = await verifyEd25519(l.raw.slice(12), enc.encode(`cosignature/v1\ntime ${time}\n${n.text}`), w.publicKey);
    if (ok === null) return null;
    if (!ok || time === 0n) return -1;
    cosigned.add(w.name);
  }
  return cosigned.size;
}

/** A signed note checked with one note key (type 0x01, signed-note): its text, or null. For the spec's test vector. */
export async function openNote(note: unknown, vkey: string): Promise<string | null> {
  const key = await parseVkey(vkey, 0x01);
  const n = splitNote(note);
  if (!key || !n) return null;
  let ok = false;
  for (const l of n.lines) {
    if (l.name !== key.name || !same(key.keyId, l.raw.subarray(0, 4))) continue;
    if (!(await verifyEd25519(l.raw.slice(4), enc.encode(n.text), key.publicKey))) return null;
    ok = true;
  }
  return ok ? n.text : null;
}

/** Whether a status's transparency_log meets the policy: its checkpoint's root is the one proven against, with the quorum of cosignatures. */
export async function witnessed(transparencyLog: unknown, policy: WitnessPolicy): Promise<boolean | null> {
  if (typeof transparencyLog !== "object" || transparencyLog === null) return false; // pending: nothing witnessed yet
  const { checkpoint, root_hash } = transparencyLog as { checkpoint?: unknown; root_hash?: unknown };
  const n = splitNote(checkpoint);
  if (!n || n.text.split("\n")[2] !== root_hash) return false;
  const count = await cosignatureCount(checkpoint, policy);
  return count === null ? null : count >= policy.quorum;
}
