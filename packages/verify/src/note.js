// C2SP signed-note and tlog-checkpoint, Ed25519 keys only (signature type 0x01).
// https://c2sp.org/signed-note  https://c2sp.org/tlog-checkpoint
import { bytesEqual, concat, fromBase64, sha256, toBase64, toHex, utf8 } from "./bytes.js";
import { publicKeyOf, publicKeyProblem, sign, verifyStrict } from "./ed25519.js";

const ED25519 = 0x01;
const DASH = "\u2014 "; // EM DASH and a space open every signature line

/**
 * @typedef {{ name: string, keyHash: Uint8Array, publicKey: Uint8Array }} NoteVerifier
 * @typedef {{ origin: string, size: number, rootHash: Uint8Array, extensions: string[] }} Checkpoint
 */

/** A key name: non-empty, printable, no spaces and no "+". @param {string} name */
const validName = (name) => name.length > 0 && !/[\s+]/u.test(name) && !/\p{Cc}/u.test(name);

/**
 * First 4 bytes of SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key).
 * @param {string} name @param {Uint8Array} publicKey
 */
export const keyHash = (name, publicKey) => sha256(concat(utf8.encode(name), Uint8Array.of(0x0a, ED25519), publicKey)).slice(0, 4);

/**
 * Parses a C2SP verifier key `<name>+<8 hex key hash>+<base64(0x01 ‖ public key)>`,
 * checking the hash and refusing weak keys. Throws an Error saying what is wrong.
 * @param {string} vkey @returns {NoteVerifier}
 */
export function parseVerifierKey(vkey) {
  const text = vkey.trim();
  // The name has no "+" and the hash is hex; the base64 key may hold "+" itself.
  const m = /^([^+]*)\+([^+]*)\+(.*)$/s.exec(text);
  if (!m) throw new Error("a verifier key is <name>+<key hash>+<key>: three parts joined by '+'");
  const [, name = "", hashHex = "", keyB64 = ""] = m;
  if (!validName(name)) throw new Error(`the key name ${JSON.stringify(name)} is empty or has spaces or control characters`);
  if (!/^[0-9a-f]{8}$/.test(hashHex)) throw new Error(`the key hash ${JSON.stringify(hashHex)} is not 8 lower-case hex digits`);
  const key = fromBase64(keyB64);
  if (!key) throw new Error("the key is not standard base64");
  if (key.length !== 33 || key[0] !== ED25519) throw new Error(`the key is not an Ed25519 key (0x01 and 32 bytes; got ${key.length} bytes, type ${key[0]})`);
  const publicKey = key.slice(1);
  const problem = publicKeyProblem(publicKey);
  if (problem) throw new Error(`the public key: ${problem}`);
  const computed = keyHash(name, publicKey);
  if (toHex(computed) !== hashHex) throw new Error(`the key hash ${hashHex} does not match the key (it is ${toHex(computed)})`);
  return { name, keyHash: computed, publicKey };
}

/** @param {string} name @param {Uint8Array} publicKey */
export function formatVerifierKey(name, publicKey) {
  if (!validName(name)) throw new Error(`invalid key name ${JSON.stringify(name)}`);
  return `${name}+${toHex(keyHash(name, publicKey))}+${toBase64(concat(Uint8Array.of(ED25519), publicKey))}`;
}

/**
 * One signature line for `text` (which must end in a newline).
 * @param {string} text @param {string} name @param {Uint8Array} seed 32-byte Ed25519 private key
 */
export function signatureLine(text, name, seed) {
  if (!text.endsWith("\n")) throw new Error("a note's text ends with a newline");
  const sig = sign(utf8.encode(text), seed);
  return `${DASH}${name} ${toBase64(concat(keyHash(name, publicKeyOf(seed)), sig))}\n`;
}

/**
 * A signed note: the text, a blank line, the signature line.
 * @param {string} text @param {string} name @param {Uint8Array} seed
 */
export const signNote = (text, name, seed) => `${text}\n${signatureLine(text, name, seed)}`;

/**
 * Opens a signed note with one verifier. The note must carry a valid signature by that key;
 * signatures by other keys are ignored, a bad one by this key fails the note.
 * @param {string} note @param {NoteVerifier} verifier
 * @returns {{ ok: true, text: string } | { ok: false, error: string }}
 */
export function openNote(note, verifier) {
  if (typeof note !== "string") return { ok: false, error: "the note is not text" };
  if (note.length > 1_000_000) return { ok: false, error: "the note is over 1 MB" };
  if (/[\p{Cc}]/u.test(note.replace(/\n/g, ""))) return { ok: false, error: "the note has control characters other than newlines" };
  const split = note.lastIndexOf("\n\n");
  if (split < 0) return { ok: false, error: "the note has no blank line before its signatures" };
  const text = note.slice(0, split + 1);
  const sigs = note.slice(split + 2);
  if (!sigs.endsWith("\n")) return { ok: false, error: "the signature block does not end with a newline" };
  let verified = false;
  const seen = [];
  for (const line of sigs.slice(0, -1).split("\n")) {
    if (!line.startsWith(DASH)) return { ok: false, error: `a signature line does not start with "— ": ${JSON.stringify(line.slice(0, 40))}` };
    const [name = "", b64 = "", ...extra] = line.slice(DASH.length).split(" ");
    const raw = fromBase64(b64);
    if (!validName(name) || extra.length > 0 || !raw || raw.length < 5) return { ok: false, error: `malformed signature line: ${JSON.stringify(line.slice(0, 60))}` };
    seen.push(`${name}+${toHex(raw.slice(0, 4))}`);
    if (name !== verifier.name || toHex(raw.slice(0, 4)) !== toHex(verifier.keyHash)) continue;
    if (raw.length !== 68 || !verifyStrict(raw.slice(4), utf8.encode(text), verifier.publicKey)) {
      return { ok: false, error: `the signature by ${verifier.name}+${toHex(verifier.keyHash)} does not verify over the note's text` };
    }
    verified = true;
  }
  if (!verified) {
    return { ok: false, error: `no signature by ${verifier.name}+${toHex(verifier.keyHash)} (signed by: ${seen.join(", ") || "nobody"})` };
  }
  return { ok: true, text };
}

/**
 * Reads a tlog-checkpoint body: origin, decimal size, base64 root hash, extension lines.
 * @param {string} text the note text (ending with a newline) @returns {Checkpoint}
 */
export function parseCheckpointText(text) {
  if (!text.endsWith("\n")) throw new Error("the checkpoint text does not end with a newline");
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) throw new Error("a checkpoint has an origin, a size and a root hash line");
  const [origin = "", sizeLine = "", hashLine = "", ...extensions] = lines;
  if (origin.length === 0) throw new Error("the checkpoint's origin line is empty");
  if (!/^(0|[1-9][0-9]*)$/.test(sizeLine) || !Number.isSafeInteger(Number(sizeLine))) throw new Error(`the tree size ${JSON.stringify(sizeLine)} is not a decimal number`);
  const rootHash = fromBase64(hashLine);
  if (!rootHash || rootHash.length !== 32) throw new Error(`the root hash ${JSON.stringify(hashLine)} is not base64 of 32 bytes`);
  if (extensions.some((l) => l.length === 0)) throw new Error("the checkpoint has an empty extension line");
  return { origin, size: Number(sizeLine), rootHash, extensions };
}

/**
 * Verifies a checkpoint note with the log's key and reads it. The origin must equal the
 * key's name (so a key cannot vouch for another log's checkpoints).
 * @param {string} note @param {NoteVerifier} verifier
 * @returns {{ ok: true, checkpoint: Checkpoint } | { ok: false, error: string }}
 */
export function verifyCheckpoint(note, verifier) {
  const opened = openNote(note, verifier);
  if (!opened.ok) return opened;
  let checkpoint;
  try {
    checkpoint = parseCheckpointText(opened.text);
  } catch (e) {
    return { ok: false, error: /** @type {Error} */ (e).message };
  }
  if (checkpoint.origin !== verifier.name) return { ok: false, error: `the checkpoint's origin ${JSON.stringify(checkpoint.origin)} is not the key's name ${JSON.stringify(verifier.name)}` };
  return { ok: true, checkpoint };
}

/**
 * Reads a checkpoint without checking any signature (to say what it claims when no log
 * key was given).
 * @param {string} note @returns {Checkpoint}
 */
export function readCheckpointUnverified(note) {
  const split = note.lastIndexOf("\n\n");
  if (split < 0) throw new Error("the note has no blank line before its signatures");
  return parseCheckpointText(note.slice(0, split + 1));
}

// ---------------------------------------------------------------- witnesses
// C2SP tlog-cosignature (Ed25519, cosignature/v1) and a witness policy: the checkpoint must
// carry valid cosignatures of at least `quorum` of the trusted witnesses.

const COSIGNATURE_V1 = 0x04;

/**
 * @typedef {{ name: string, keyId: Uint8Array, publicKey: Uint8Array }} Cosigner
 * @typedef {{ witnesses: Cosigner[], quorum: number }} WitnessPolicy
 */

/**
 * First 4 bytes of SHA-256(name ‖ "\n" ‖ 0x04 ‖ public key).
 * @param {string} name @param {Uint8Array} publicKey
 */
export const cosignerKeyId = (name, publicKey) => sha256(concat(utf8.encode(name), Uint8Array.of(0x0a, COSIGNATURE_V1), publicKey)).slice(0, 4);

/**
 * Parses a witness's vkey `<name>+<8 hex key ID>+<base64(0x04 ‖ Ed25519 public key)>`.
 * Throws an Error saying what is wrong.
 * @param {string} vkey @returns {Cosigner}
 */
export function parseCosignerKey(vkey) {
  const m = /^([^+]*)\+([^+]*)\+(.*)$/s.exec(vkey.trim());
  if (!m) throw new Error("a witness key is <name>+<key ID>+<key>: three parts joined by '+'");
  const [, name = "", idHex = "", keyB64 = ""] = m;
  if (!validName(name)) throw new Error(`the key name ${JSON.stringify(name)} is empty or has spaces or control characters`);
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new Error(`the key ID ${JSON.stringify(idHex)} is not 8 lower-case hex digits`);
  const key = fromBase64(keyB64);
  if (!key) throw new Error("the key is not standard base64");
  if (key.length !== 33 || key[0] !== COSIGNATURE_V1) throw new Error(`the key is not an Ed25519 cosignature key (0x04 and 32 bytes; got ${key.length} bytes, type ${key[0]})`);
  const publicKey = key.slice(1);
  const problem = publicKeyProblem(publicKey);
  if (problem) throw new Error(`the public key: ${problem}`);
  const keyId = cosignerKeyId(name, publicKey);
  if (toHex(keyId) !== idHex) throw new Error(`the key ID ${idHex} does not match the key (it is ${toHex(keyId)})`);
  return { name, keyId, publicKey };
}

/**
 * The message a witness signs: "cosignature/v1\ntime <t>\n" and the checkpoint's text.
 * @param {string} text @param {bigint} time
 */
export const cosignedMessage = (text, time) => utf8.encode(`cosignature/v1\ntime ${time}\n${text}`);

/**
 * Which trusted witnesses validly cosigned the note. Lines of unknown keys are ignored and
 * never counted; several lines of one witness count once; a line of a trusted witness that
 * does not verify makes the note fail (signed-note: such a note is malformed).
 * @param {string} note @param {WitnessPolicy} policy
 * @returns {{ ok: true, cosigned: string[] } | { ok: false, error: string }}
 */
export function checkWitnesses(note, policy) {
  const split = typeof note === "string" ? note.lastIndexOf("\n\n") : -1;
  if (split < 0) return { ok: false, error: "the note has no blank line before its signatures" };
  const text = note.slice(0, split + 1);
  const cosigned = new Set();
  for (const line of note.slice(split + 2).replace(/\n$/, "").split("\n")) {
    if (!line.startsWith(DASH)) return { ok: false, error: `a signature line does not start with "— ": ${JSON.stringify(line.slice(0, 40))}` };
    const [name = "", b64 = ""] = line.slice(DASH.length).split(" ");
    const raw = fromBase64(b64);
    if (!raw || raw.length < 4) continue;
    const w = policy.witnesses.find((x) => x.name === name && bytesEqual(x.keyId, raw.slice(0, 4)));
    if (!w) continue;
    if (raw.length !== 76) return { ok: false, error: `the cosignature by ${name} is ${raw.length - 4} bytes, not a timestamp and an Ed25519 signature (72)` };
    const time = new DataView(raw.buffer, raw.byteOffset + 4, 8).getBigUint64(0);
    if (time === 0n || time >= 2n ** 63n) return { ok: false, error: `the cosignature by ${name} has timestamp ${time}` };
    if (!verifyStrict(raw.slice(12), cosignedMessage(text, time), w.publicKey)) {
      return { ok: false, error: `the cosignature by ${name}+${toHex(w.keyId)} does not verify over the checkpoint` };
    }
    cosigned.add(name);
  }
  return { ok: true, cosigned: [...cosigned] };
}

/**
 * The policy's verdict on a checkpoint note, with a sentence either way.
 * @param {string} note @param {WitnessPolicy} policy
 * @returns {{ ok: boolean, detail: string }}
 */
export function witnessVerdict(note, policy) {
  const r = checkWitnesses(note, policy);
  if (!r.ok) return { ok: false, detail: r.error };
  const n = r.cosigned.length;
  const of = `${n} valid cosignature${n === 1 ? "" : "s"} of the ${policy.witnesses.length} trusted witness${policy.witnesses.length === 1 ? "" : "es"}`;
  return n >= policy.quorum
    ? { ok: true, detail: `${of} (${r.cosigned.join(", ")}); quorum ${policy.quorum}` }
    : { ok: false, detail: `${of}${n > 0 ? ` (${r.cosigned.join(", ")})` : ""}, fewer than the quorum of ${policy.quorum}: the checkpoint is not witnessed` };
}

