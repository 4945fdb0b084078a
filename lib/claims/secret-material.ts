import type { FieldError } from "@/lib/http/errors";

/**
 * Keys, seed phrases and API secrets are never sent to this service (spec 2.3 rule 1):
 * a body that carries one is refused before it is parsed, stored or logged, and the answer
 * names where it was found, never what it was.
 */
const SECRET_NAMES = /^(private_?key|secret_?key|signing_?key|seed|seed_?phrase|mnemonic|recovery_?phrase|api_?secret|api_?key|secret|password|passphrase|xprv|wif)$/i;
const PEM_PRIVATE = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const HEX_KEY = /^(0x)?[0-9a-fA-F]{64}$|^[0-9a-fA-F]{128}$/;
const EXTENDED_PRIVATE = /^[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,}$/;
/** 12 to 24 lower-case words: how a BIP-39 recovery phrase looks. */
const SEED_PHRASE = /^(?:[a-z]{3,8}\s+){11,23}[a-z]{3,8}$/;

function secretValue(v: string, name: string): boolean {
  const s = v.trim();
  if (PEM_PRIVATE.test(s) || EXTENDED_PRIVATE.test(s) || SEED_PHRASE.test(s)) return true;
  // 32 bytes of hex is a hash where a hash is expected (mandate_hash carries its prefix); elsewhere it is a key.
  return HEX_KEY.test(s) && !/hash/i.test(name);
}

export function findSecretMaterial(value: unknown, path = "", depth = 0): FieldError | null {
  if (depth > 8 || value === null || typeof value !== "object") return null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const at = path ? `${path}.${k}` : k;
    if (SECRET_NAMES.test(k)) return refused(at, `'${at}' would carry secret material`);
    if (typeof v === "string" && secretValue(v, k)) return refused(at, `'${at}' holds what looks like a private key or recovery phrase`);
    const inner = findSecretMaterial(v, at, depth + 1);
    if (inner) return inner;
  }
  return null;
}

const refused = (param: string, what: string): FieldError => ({
  code: "secret_material_refused",
  param,
  message: `${what}. Keys, seed phrases and API secrets are never sent here; nothing was stored. Send a hash of the instruction (mandate_hash) instead.`,
});
