// Command-line inputs shared by the commands: the JWKS, the log key, hex lists.
import { existsSync } from "node:fs";
import { fromHex } from "./bytes.js";
import { InputError, inlineOrSource, isUrl, readJson, readText } from "./io.js";
import { parseCosignerKey, parseVerifierKey } from "./note.js";

/**
 * The service's base URL from a URL of one of its API answers.
 * @param {string} url
 */
export function baseOf(url) {
  const u = new URL(url);
  const at = u.pathname.indexOf("/api/v1/");
  return `${u.origin}${at >= 0 ? u.pathname.slice(0, at) : ""}`;
}

/**
 * The JWKS from --jwks, or, for an answer fetched from a URL, from that service.
 * @param {string | undefined} arg @param {string} source the answer's file or URL
 * @param {import("./report.js").Report} report
 */
export async function loadJwks(arg, source, report) {
  let from = arg;
  if (!from) {
    if (!isUrl(source)) throw new InputError("give --jwks <file|URL> (the service's /.well-known/jwks.json)");
    from = `${baseOf(source)}/.well-known/jwks.json`;
    report.note("keys", `JWKS read from the same service: ${from} (give --jwks to pin a copy you trust)`);
  }
  return readJson(from, "JWKS");
}

/**
 * The log's verifier key, inline (`name+hash+key`), in a file, or at a URL (<base>/log/key).
 * A malformed or weak key is an input error.
 * @param {string} arg
 */
export async function loadLogKey(arg) {
  const text = await inlineOrSource(arg, "log key", (s) => /^[^+\s]+\+[0-9a-f]{8}\+\S+$/.test(s));
  try {
    return parseVerifierKey(text.split("\n")[0] ?? "");
  } catch (e) {
    throw new InputError(`log key refused: ${/** @type {Error} */ (e).message}`);
  }
}

/**
 * A list of hex hashes: inline "h1,h2", or a file holding a JSON array or hashes separated
 * by commas or white space. "" is the empty list.
 * @param {string} arg @param {string} what
 */
export async function loadHexList(arg, what) {
  let text = arg;
  if (isUrl(arg) || (arg !== "" && existsSync(arg))) text = (await readText(arg, what)).trim();
  /** @type {unknown[]} */
  let items;
  if (text.startsWith("[")) {
    try {
      items = JSON.parse(text);
    } catch {
      throw new InputError(`${what} is not a JSON array`);
    }
  } else items = text.split(/[\s,]+/).filter((s) => s.length > 0);
  return items.map((h, i) => {
    const b = typeof h === "string" ? fromHex(h) : null;
    if (!b || b.length !== 32) throw new InputError(`${what}: item ${i} is not a 32-byte hex hash`);
    return b;
  });
}

/** @param {string | undefined} arg @param {string} name */
export function wholeNumber(arg, name) {
  if (arg === undefined || !/^(0|[1-9][0-9]*)$/.test(arg) || !Number.isSafeInteger(Number(arg))) throw new InputError(`--${name} must be a whole number`);
  return Number(arg);
}

/**
 * The witness policy of --witness <vkey> (repeatable; inline, a file or a URL) and --quorum N
 * (default: all of them); null when no --witness is given.
 * @param {Record<string, unknown>} values
 * @returns {Promise<import("./note.js").WitnessPolicy | null>}
 */
export async function loadWitnessPolicy(values) {
  const given = /** @type {string[] | undefined} */ (values.witness) ?? [];
  const quorumArg = /** @type {string | undefined} */ (values.quorum);
  if (given.length === 0) {
    if (quorumArg !== undefined) throw new InputError("--quorum needs the witnesses it counts: give --witness <vkey> for each");
    return null;
  }
  /** @type {import("./note.js").Cosigner[]} */
  const witnesses = [];
  for (const arg of given) {
    const text = await inlineOrSource(arg, "witness key", (s) => /^[^+\s]+\+[0-9a-f]{8}\+\S+$/.test(s));
    let w;
    try {
      w = parseCosignerKey(text.split("\n")[0] ?? "");
    } catch (e) {
      throw new InputError(`witness key ${JSON.stringify(arg.slice(0, 80))} refused: ${/** @type {Error} */ (e).message}`);
    }
    if (witnesses.some((x) => x.name === w.name)) throw new InputError(`--witness ${w.name} is given twice`);
    witnesses.push(w);
  }
  const quorum = quorumArg === undefined ? witnesses.length : wholeNumber(quorumArg, "quorum");
  if (quorum < 1 || quorum > witnesses.length) throw new InputError(`--quorum must be between 1 and the ${witnesses.length} witness${witnesses.length === 1 ? "" : "es"} given`);
  return { witnesses, quorum };
}
