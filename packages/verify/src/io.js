// Reading inputs: a file, a URL (Node's fetch), or inline text. Anything that cannot be
// read is an InputError, which the CLI turns into exit status 2.
import { existsSync, readFileSync } from "node:fs";

export class InputError extends Error {}

/** @param {string} s */
export const isUrl = (s) => /^https?:\/\//i.test(s);

/**
 * GET a URL. Returns the status and body; network failures are InputErrors.
 * @param {string} url @param {{ timeoutMs?: number }} [opts]
 * @returns {Promise<{ status: number, body: Uint8Array, url: string }>}
 */
export async function httpGet(url, opts = {}) {
  let res;
  try {
    res = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000), headers: { "user-agent": "prs-verify" } });
  } catch (e) {
    throw new InputError(`GET ${url} failed: ${/** @type {Error} */ (e).cause ?? /** @type {Error} */ (e).message}`);
  }
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()), url };
}

/** @param {string} url */
export async function httpGetOk(url) {
  const res = await httpGet(url);
  if (res.status !== 200) throw new InputError(`GET ${url} answered ${res.status}`);
  return res.body;
}

/**
 * The bytes of a file or URL.
 * @param {string} source @param {string} what what it is, for error messages
 */
export async function readBytes(source, what) {
  if (isUrl(source)) return httpGetOk(source);
  try {
    return new Uint8Array(readFileSync(source));
  } catch (e) {
    throw new InputError(`cannot read ${what} ${source}: ${/** @type {NodeJS.ErrnoException} */ (e).code ?? /** @type {Error} */ (e).message}`);
  }
}

/** @param {string} source @param {string} what */
export async function readText(source, what) {
  return new TextDecoder("utf-8", { fatal: true }).decode(await readBytes(source, what));
}

/**
 * JSON from a file or URL.
 * @param {string} source @param {string} what @returns {Promise<unknown>}
 */
export async function readJson(source, what) {
  const text = await readText(source, what);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what} ${source} is not JSON: ${/** @type {Error} */ (e).message}`);
  }
}

/**
 * A value given inline, or as a file or URL holding it (the log key, a hex list).
 * @param {string} arg @param {string} what @param {(s: string) => boolean} looksInline
 */
export async function inlineOrSource(arg, what, looksInline) {
  if (isUrl(arg)) return (await readText(arg, what)).trim();
  if (existsSync(arg)) return (await readText(arg, what)).trim();
  if (looksInline(arg)) return arg.trim();
  throw new InputError(`${what} ${JSON.stringify(arg)} is neither a file, a URL nor an inline value`);
}
