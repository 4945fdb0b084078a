// Checking one logged entry as the service hands it out (in a record's log answer or a
// signed status's transparency_log): its leaf, leaf hash and inclusion proof against a
// checkpoint.
import { fromHex, toHex, utf8 } from "./bytes.js";
import { parseLeaf } from "./leaf.js";
import { leafHash, verifyInclusion } from "./merkle.js";
import { readCheckpointUnverified, verifyCheckpoint, witnessVerdict } from "./note.js";

/**
 * Verifies a checkpoint note with the log key when there is one; otherwise reads it and
 * says its signature went unchecked. Returns the checkpoint or null when unusable.
 * @param {import("./report.js").Report} report @param {string} label @param {unknown} note
 * @param {import("./note.js").NoteVerifier | null} logKey
 * @param {import("./note.js").WitnessPolicy | null} [policy] --witness/--quorum: a checkpoint
 *   without the quorum of cosignatures fails (and is not used further)
 * @returns {import("./note.js").Checkpoint | null}
 */
export function checkCheckpoint(report, label, note, logKey, policy = null) {
  if (typeof note !== "string") return report.fail(label, "no checkpoint (a signed note as text)"), null;
  if (policy) {
    const w = witnessVerdict(note, policy);
    report.expect(`${label} witnesses`, w.ok, w.detail, w.detail);
    if (!w.ok) return null;
  }
  if (logKey) {
    const v = verifyCheckpoint(note, logKey);
    if (!v.ok) return report.fail(`${label} signature`, v.error), null;
    report.pass(`${label} signature`, `signed by ${logKey.name}; tree size ${v.checkpoint.size}`);
    return v.checkpoint;
  }
  try {
    const cp = readCheckpointUnverified(note);
    report.skip(`${label} signature`, "not checked: give --log-key (the log's verifier key from <base>/log/key) to check it");
    return cp;
  } catch (e) {
    report.fail(label, /** @type {Error} */ (e).message);
    return null;
  }
}

/**
 * @param {unknown} s @returns {Uint8Array[] | null}
 */
function hexList(s) {
  if (!Array.isArray(s)) return null;
  const out = [];
  for (const h of s) {
    const b = typeof h === "string" ? fromHex(h) : null;
    if (!b) return null;
    out.push(b);
  }
  return out;
}

/**
 * One entry `{index, leaf, leaf_hash, tree_size, inclusion_proof}` against a checkpoint.
 * Returns the parsed leaf when the leaf reads (even if later checks fail), else null.
 * @param {import("./report.js").Report} report @param {string} label
 * @param {Record<string, any>} entry @param {import("./note.js").Checkpoint} cp
 * @returns {import("./leaf.js").Leaf | null}
 */
export function checkEntry(report, label, entry, cp) {
  const { index, leaf, leaf_hash: hashHex, tree_size: size, inclusion_proof: proofHex } = entry ?? {};
  if (typeof leaf !== "string") return report.fail(`${label} leaf`, "no leaf text"), null;
  let parsed = null;
  try {
    parsed = parseLeaf(leaf);
    report.pass(`${label} leaf`, `${parsed.event} ${parsed.verification_id ?? "(signing key)"} → ${parsed.status} at ${parsed.at}`);
  } catch (e) {
    report.fail(`${label} leaf`, /** @type {Error} */ (e).message);
  }
  const computed = leafHash(utf8.encode(leaf));
  report.expect(`${label} leaf hash`, hashHex === toHex(computed), toHex(computed), `given ${hashHex}, but SHA-256(0x00 ‖ leaf) is ${toHex(computed)}`);
  if (size !== cp.size) report.fail(`${label} tree size`, `the proof is for a tree of ${size}, the checkpoint's is ${cp.size}`);
  const proof = hexList(proofHex);
  if (!proof) return report.fail(`${label} inclusion`, "inclusion_proof is not a list of hex hashes"), parsed;
  const r = verifyInclusion(index, cp.size, computed, proof, cp.rootHash);
  report.expect(`${label} inclusion`, r.ok, `leaf ${index} is in the tree of ${cp.size} with the checkpoint's root`, r.ok ? "" : r.error);
  return parsed;
}
