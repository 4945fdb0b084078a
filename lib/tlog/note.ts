import { createPrivateKey, randomBytes, sign as nodeSign, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "@/lib/env";
import { sha256 } from "./merkle";

/**
 * The log's own Ed25519 note key (C2SP signed-note), apart from the record-signing keys:
 * `LOG_NOTE_KEY` (base64 of the 32-byte seed; the same on every instance), else a seed kept in
 * `DATA_DIR/log-note-key` (0600), made at first use. Its name is the log's origin.
 */
export type NoteKey = { name: string; keyHash: Buffer; publicKey: Buffer; vkey: string; privateObject: KeyObject };

const g = globalThis as unknown as { __prsNoteKey?: NoteKey };

/** `<public host[:port]>/log`: C2SP origins carry no scheme. */
export const logOrigin = () => `${new URL(getEnv().publicBaseUrl).host}/log`;

function seed(): Buffer {
  const fromEnv = getEnv().LOG_NOTE_KEY;
  if (fromEnv) return Buffer.from(fromEnv, "base64");
  const file = path.join(getEnv().dataDir, "log-note-key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, randomBytes(32).toString("base64") + "\n", { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
}

/** Key hash per C2SP signed-note: SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key)[:4]. */
export const noteKeyHash = (name: string, publicKey: Uint8Array) =>
  sha256(Buffer.from(`${name}\n`, "utf8"), Buffer.from([1]), publicKey).subarray(0, 4);

export function noteKeyFromSeed(name: string, s: Uint8Array): NoteKey {
  if (s.length !== 32) throw new Error("LOG_NOTE_KEY must be 32 bytes, base64");
  // PKCS#8 for Ed25519 is a fixed 16-byte prefix and the seed.
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.from(s)]);
  const privateObject = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  const jwk = privateObject.export({ format: "jwk" }) as { x: string };
  const publicKey = Buffer.from(jwk.x, "base64url");
  const keyHash = noteKeyHash(name, publicKey);
  const vkey = `${name}+${keyHash.toString("hex")}+${Buffer.concat([Buffer.from([1]), publicKey]).toString("base64")}`;
  return { name, keyHash, publicKey, vkey, privateObject };
}

export function noteKey(): NoteKey {
  const name = logOrigin();
  if (g.__prsNoteKey?.name !== name) g.__prsNoteKey = noteKeyFromSeed(name, seed());
  return g.__prsNoteKey;
}

/** A signed note: the text (ending in a newline), a blank line, one signature line. */
export function signNote(text: string, key: NoteKey = noteKey()): string {
  if (!text.endsWith("\n")) throw new Error("a note's text ends with a newline");
  const sig = nodeSign(null, Buffer.from(text, "utf8"), key.privateObject);
  return `${text}\n\u2014 ${key.name} ${Buffer.concat([key.keyHash, sig]).toString("base64")}\n`;
}

/** The checkpoint body per C2SP tlog-checkpoint: origin, size, base64 root hash. */
export const checkpointText = (size: number, rootHex: string, origin = logOrigin()) =>
  `${origin}\n${size}\n${Buffer.from(rootHex, "hex").toString("base64")}\n`;
