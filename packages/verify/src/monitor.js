// A log monitor: follows the checkpoint, checks every new entry into the tree, keeps each
// record's latest logged status, and compares it with what the service says publicly.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { canonicalize } from "json-canonicalize";
import { bytesEqual, fromHex, sha256, toBase64, toHex, utf8 } from "./bytes.js";
import { InputError, httpGet, readJson, readText } from "./io.js";
import { loadLogKey } from "./inputs.js";
import { checkSignedAnswer } from "./jwks.js";
import { FINAL, parseLeaf } from "./leaf.js";
import { CompactRange, leafHash } from "./merkle.js";
import { verifyCheckpoint, witnessVerdict } from "./note.js";
import { Report } from "./report.js";
import { TILE_WIDTH, TileReader } from "./tiles.js";

/**
 * @typedef {{ status: string, event: string, at: string, index: number, environment: string }} Logged
 * @typedef {{ version: 1, log: string, origin: string, checkpoint: string, size: number,
 *   compact_range: string[], records: Record<string, Logged>,
 *   signing_keys: { payload_sha256: string, at: string, index: number }[] }} State
 */

/** @param {string} path @param {import("./note.js").NoteVerifier} key @param {string} log @returns {State | null} */
function loadState(path, key, log) {
  if (!existsSync(path)) return null;
  /** @type {State} */
  let s;
  try {
    s = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new InputError(`state file ${path} is not JSON: ${/** @type {Error} */ (e).message}`);
  }
  if (s?.version !== 1) throw new InputError(`state file ${path} is not a prs-verify monitor state (version 1)`);
  if (s.log !== log) throw new InputError(`state file ${path} follows ${s.log}, not ${log}`);
  const v = verifyCheckpoint(s.checkpoint, key);
  if (!v.ok) throw new InputError(`the checkpoint saved in ${path} does not verify with this log key: ${v.error}`);
  let range;
  try {
    range = new CompactRange(s.size, s.compact_range.map((h) => fromHex(h) ?? new Uint8Array(0)));
  } catch (e) {
    throw new InputError(`state file ${path}: ${/** @type {Error} */ (e).message}`);
  }
  if (s.size !== v.checkpoint.size || !bytesEqual(range.root(), v.checkpoint.rootHash)) {
    throw new InputError(`state file ${path} is damaged: its saved tree does not hash to its checkpoint's root`);
  }
  return s;
}

/** @param {string} path @param {State} state */
function saveState(path, state) {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * Runs `fn` over `items`, at most `limit` at a time.
 * @template T, R @param {T[]} items @param {number} limit @param {(t: T) => Promise<R>} fn @returns {Promise<R[]>}
 */
async function pool(items, limit, fn) {
  /** @type {R[]} */
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(/** @type {T} */ (items[i]));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * One pass of the monitor.
 * @param {{ log: string, logKey: string, state: string, jwks?: string, graceSeconds: number, now?: () => number,
 *   policy?: import("./note.js").WitnessPolicy | null }} opts
 */
export async function monitorOnce(opts) {
  const report = new Report("monitor");
  const log = opts.log.replace(/\/+$/, "");
  const key = await loadLogKey(opts.logKey);
  const saved = loadState(opts.state, key, log);
  const now = opts.now ?? Date.now;

  // 1. The checkpoint, and the tree it commits to, grown from the saved one.
  const note = await readText(`${log}/log/checkpoint`, "checkpoint");
  const v = verifyCheckpoint(note, key);
  if (!v.ok) return report.fail("checkpoint signature", v.error), report;
  const cp = v.checkpoint;
  report.pass("checkpoint signature", `${key.name}, tree size ${cp.size}`);
  if (opts.policy) {
    // An unwitnessed checkpoint is not taken into the saved state.
    const w = witnessVerdict(note, opts.policy);
    report.expect("checkpoint witnesses", w.ok, w.detail, w.detail);
    if (!w.ok) return report;
  }
  const from = saved?.size ?? 0;
  report.facts = { log, tree_size: cp.size, previous_size: saved ? from : null };
  if (cp.size < from) return report.fail("consistency", `the log shrank from ${from} to ${cp.size} entries`), report;

  const range = saved ? new CompactRange(saved.size, saved.compact_range.map((h) => /** @type {Uint8Array} */ (fromHex(h)))) : new CompactRange();
  /** @type {Record<string, Logged>} */
  const records = structuredClone(saved?.records ?? {});
  const signingKeys = [...(saved?.signing_keys ?? [])];
  const tiles = new TileReader(log);
  let badEntries = 0;
  for (let n = Math.floor(from / TILE_WIDTH); n * TILE_WIDTH < cp.size; n++) {
    const width = Math.min(TILE_WIDTH, cp.size - n * TILE_WIDTH);
    const entries = await tiles.bundle(n, width);
    for (let i = Math.max(from, n * TILE_WIDTH); i < n * TILE_WIDTH + width; i++) {
      const bytes = /** @type {Uint8Array} */ (entries[i - n * TILE_WIDTH]);
      range.append(leafHash(bytes));
      const problem = applyEntry(records, signingKeys, i, new TextDecoder().decode(bytes));
      if (problem) {
        badEntries++;
        report.fail(`entry ${i}`, problem);
      }
    }
  }
  const added = cp.size - from;
  report.facts.new_entries = added;
  const consistent = bytesEqual(range.root(), cp.rootHash);
  if (!consistent) {
    report.fail("consistency", saved
      ? `the saved tree of ${from} plus the ${added} new entries hashes to ${toBase64(range.root())}, not the checkpoint's root ${toBase64(cp.rootHash)}: the log forked or rewrote history`
      : `the ${cp.size} entries hash to ${toBase64(range.root())}, not the checkpoint's root ${toBase64(cp.rootHash)}`);
    return report; // the saved state stays as it was
  }
  report.pass("consistency", !saved ? `all ${cp.size} entries hash to the checkpoint's root`
    : added === 0 ? `no new entries; the checkpoint has the saved tree's root` : `the ${added} new entries extend the saved tree of ${from} to the checkpoint's root`);
  if (badEntries === 0 && added > 0) report.pass("entries", `${added} new entries, all well-formed leaves in lifecycle order`);
  saveState(opts.state, {
    version: 1, log, origin: cp.origin, checkpoint: note, size: cp.size,
    compact_range: range.hashes().map(toHex), records, signing_keys: signingKeys,
  });

  // 2. What the service says now about every record seen in the log.
  const jwks = await readJson(opts.jwks ?? `${log}/.well-known/jwks.json`, "JWKS");
  noteSigningKeys(report, jwks, signingKeys);
  const ids = Object.keys(records).sort();
  report.facts.records = ids.length;
  const answers = await pool(ids, 8, async (id) => ({ id, res: await httpGet(`${log}/api/v1/records/${encodeURIComponent(id)}/status`) }));
  let agree = 0;
  let contradictions = 0;
  for (const { id, res } of answers) {
    const logged = /** @type {Logged} */ (records[id]);
    const outcome = compare(id, logged, res, jwks, now(), opts.graceSeconds);
    if (outcome.result === "agree") agree++;
    else if (outcome.result === "note") report.note(id, outcome.detail);
    else {
      contradictions++;
      report.fail(id, outcome.detail);
    }
  }
  report.facts.contradictions = contradictions;
  if (ids.length > 0) report.expect("public status", contradictions === 0, `${agree} of ${ids.length} records' public status agrees with the log`, `${contradictions} of ${ids.length} records' public status contradicts the log`);
  return report;
}

/**
 * Adds one log entry to the records' logged history. Returns what is wrong with it, if anything.
 * @param {Record<string, Logged>} records @param {State["signing_keys"]} keys @param {number} index @param {string} text
 */
function applyEntry(records, keys, index, text) {
  let leaf;
  try {
    leaf = parseLeaf(text);
  } catch (e) {
    return /** @type {Error} */ (e).message;
  }
  if (leaf.event === "signing_key_published") {
    keys.push({ payload_sha256: leaf.payload_sha256, at: leaf.at, index });
    return null;
  }
  const id = /** @type {string} */ (leaf.verification_id);
  const before = records[id];
  /** @type {Logged} */
  const now = { status: leaf.status, event: leaf.event, at: leaf.at, index, environment: leaf.environment };
  records[id] = before && leaf.event === "issued" ? before : now;
  if (leaf.event === "issued") {
    if (before) return `${id} is logged as issued a second time (first at entry ${before.index})`;
    if (leaf.status !== "active") return `${id} is logged as issued with status ${leaf.status}`;
    return null;
  }
  if (!before) return `${id} changes status to ${leaf.status} before it is logged as issued`;
  if (FINAL.includes(before.status)) return `${id} moves from ${before.status}, a final status (entry ${before.index}), to ${leaf.status}`;
  if (before.environment !== leaf.environment) return `${id} changes environment from ${before.environment} to ${leaf.environment}`;
  if (Date.parse(leaf.at) < Date.parse(before.at)) return `${id}: this change (${leaf.at}) is dated before the previous one (${before.at})`;
  return null;
}

/**
 * @param {string} id @param {Logged} logged @param {{ status: number, body: Uint8Array }} res
 * @param {unknown} jwks @param {number} nowMs @param {number} grace seconds a change may take to reach the log
 * @returns {{ result: "agree" | "note" | "contradiction", detail: string }}
 */
function compare(id, logged, res, jwks, nowMs, grace) {
  const said = `the log's latest entry (${logged.index}) says ${logged.status} since ${logged.at}`;
  if (res.status === 404) return { result: "contradiction", detail: `the service answers 404 for a record the log shows issued; ${said}` };
  if (res.status !== 200) return { result: "note", detail: `status not read: the service answered ${res.status}` };
  let a;
  try {
    a = JSON.parse(new TextDecoder().decode(res.body));
  } catch {
    return { result: "contradiction", detail: "the status answer is not JSON" };
  }
  const sig = new Report("status");
  if (!checkSignedAnswer(sig, "status", a, "status_signature", jwks)) {
    return { result: "contradiction", detail: `the public status does not verify: ${sig.checks.filter((c) => c.result === "fail").map((c) => `${c.check}: ${c.detail}`).join("; ")}` };
  }
  if (a.verification_id !== id) return { result: "contradiction", detail: `the status answer is about ${a.verification_id}` };
  if (a.status === logged.status) return { result: "agree", detail: "" };
  const changed = Date.parse(a.status_changed_at);
  const age = Number.isNaN(changed) ? Infinity : Math.round((nowMs - changed) / 1000);
  const publicSays = `the service says ${a.status} since ${a.status_changed_at}`;
  if (FINAL.includes(logged.status)) return { result: "contradiction", detail: `${said} — a final status — but ${publicSays}` };
  if (!(changed > Date.parse(logged.at))) return { result: "contradiction", detail: `${publicSays}, but ${said}` };
  // The service changed the status after the log's latest entry: not logged yet, or never.
  const what = logged.status === "active" && a.status === "expired" ? "expiry not yet logged" : "change not yet logged";
  if (age <= grace) return { result: "note", detail: `${what}: ${publicSays} (${age} s ago); ${said}` };
  return { result: "contradiction", detail: `${what} after ${age} s (more than --grace ${grace} s): ${publicSays}; ${said}` };
}

/**
 * Notes whether each published signing key was logged (signing_key_published, payload_sha256 =
 * SHA-256 of the key's canonical public JWK).
 * @param {Report} report @param {unknown} jwks @param {State["signing_keys"]} logged
 */
function noteSigningKeys(report, jwks, logged) {
  const keys = /** @type {{ keys?: Record<string, unknown>[] }} */ (jwks ?? {}).keys ?? [];
  const hashes = new Set(logged.map((k) => k.payload_sha256));
  const missing = keys.filter((k) => !hashes.has(toHex(sha256(utf8.encode(canonicalize(k))))));
  if (keys.length === 0) return;
  if (missing.length === 0) report.pass("signing keys", `all ${keys.length} published keys are in the log`);
  else report.note("signing keys", `not found in the log as signing_key_published (hash of the canonical JWK): ${missing.map((k) => k.kid).join(", ")}`);
}
