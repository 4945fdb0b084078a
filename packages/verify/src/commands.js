// The verifying commands except the monitor. Each takes parsed options and returns a
// Report; input problems throw InputError (exit 2).
import { canonicalize } from "json-canonicalize";
import { bytesEqual, fromBase64, fromHex, sha256, toBase64, toHex, utf8 } from "./bytes.js";
import { InputError, isUrl, readJson, readText } from "./io.js";
import { loadHexList, loadJwks, loadLogKey, loadWitnessPolicy, wholeNumber } from "./inputs.js";
import { canonicalBytes, checkSignature, checkSignedAnswer } from "./jwks.js";
import { parseLeaf } from "./leaf.js";
import { checkCheckpoint, checkEntry } from "./log-entry.js";
import { EMPTY_ROOT, consistencyProof, leafHash, verifyConsistency, verifyInclusion } from "./merkle.js";
import { verifyCheckpoint, witnessVerdict } from "./note.js";
import { Report } from "./report.js";
import { TileReader } from "./tiles.js";

/** @typedef {{ positionals: string[], values: Record<string, string | string[] | boolean | undefined> }} Args */

/** @param {Args} args @param {string} name */
const str = (args, name) => /** @type {string | undefined} */ (args.values[name]);

/** @param {Args} args @param {string} what */
function onlyInput(args, what) {
  if (args.positionals.length !== 1) throw new InputError(`give one ${what} (a file or a URL)`);
  return /** @type {string} */ (args.positionals[0]);
}

/** @param {unknown} v @returns {Record<string, any>} */
function asObject(v, what = "the input") {
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new InputError(`${what} is not a JSON object`);
  return /** @type {Record<string, any>} */ (v);
}

// ---------------------------------------------------------------- record

/**
 * The signed payload as the record shows it (docs/api.md §12), for when neither --payload
 * nor the signature URL is at hand. Records issued before accounts had names signed no
 * `account`; the others signed the name at issue, which may since have changed. Records
 * issued since the trust model also sign their `checks` (what was checked, by whom).
 * @param {Record<string, any>} rec
 */
function payloadsFromRecord(rec) {
  const lc = rec.lifecycle ?? {};
  const cert = typeof rec.certificate_url === "string" ? rec.certificate_url : "";
  const issuer = cert.replace(/\/r\/[^/]+$/, "");
  const base = {
    id: rec.verification_id, environment: rec.environment, subject: rec.subject, claim_type: rec.claim_type, claim: rec.claim,
    evidence_level: rec.evidence_level, evidence: rec.evidence, issued_at: lc.issued_at, valid_from: lc.valid_from, expires_at: lc.expires_at ?? null,
  };
  const account = { name: rec.account?.name ?? null };
  const withChecks = Array.isArray(rec.checks) && rec.checks.length > 0 ? [{ ...base, account, checks: rec.checks, issuer }] : [];
  return [...withChecks, { ...base, account, issuer }, { ...base, issuer }];
}

/**
 * @param {Report} report @param {Record<string, any>} rec @param {Record<string, any>} payload
 */
function compareRecordWithPayload(report, rec, payload) {
  const lc = rec.lifecycle ?? {};
  /** @type {[string, unknown, unknown][]} */
  const pairs = [
    ["verification_id / id", rec.verification_id, payload.id], ["environment", rec.environment, payload.environment],
    ["subject", rec.subject, payload.subject], ["claim_type", rec.claim_type, payload.claim_type], ["claim", rec.claim, payload.claim],
    ["evidence_level", rec.evidence_level, payload.evidence_level], ["evidence", rec.evidence, payload.evidence],
    ["lifecycle.issued_at", lc.issued_at, payload.issued_at], ["lifecycle.valid_from", lc.valid_from, payload.valid_from],
    ["lifecycle.expires_at", lc.expires_at ?? null, payload.expires_at],
  ];
  const differ = pairs.filter(([, a, b]) => canonicalize(a ?? null) !== canonicalize(b ?? null));
  if (typeof rec.certificate_url === "string" && typeof payload.issuer === "string" && !rec.certificate_url.startsWith(`${payload.issuer}/r/`)) {
    differ.push(["issuer", rec.certificate_url, payload.issuer]);
  }
  report.expect(
    "record matches what was signed",
    differ.length === 0,
    "id, environment, subject, claim, evidence, level and dates as signed",
    differ.map(([f, a, b]) => `${f}: the record shows ${canonicalize(a ?? null)}, the signed payload says ${canonicalize(b ?? null)}`).join("; "),
  );
}

/** @param {Args} args */
export async function record(args) {
  const report = new Report("record");
  const source = onlyInput(args, "record");
  const input = asObject(await readJson(source, "record"), "the record");
  const jwks = await loadJwks(str(args, "jwks"), source, report);

  // A signature check answer (GET /api/v1/records/{id}/signature) carries its own payload.
  const isSignatureAnswer = "signed_payload" in input;
  const rec = isSignatureAnswer ? null : input;
  const integrity = isSignatureAnswer ? input : input.integrity;
  report.facts = { verification_id: input.verification_id ?? null, status: rec?.status ?? null, environment: rec?.environment ?? input.signed_payload?.environment ?? null };
  if (!integrity || typeof integrity !== "object") {
    report.fail("integrity", `the record has no integrity block: it was not issued (status ${JSON.stringify(input.status)})`);
    return report;
  }
  if (integrity.algorithm !== undefined && integrity.algorithm !== "Ed25519") report.fail("algorithm", `${integrity.algorithm}, not Ed25519`);
  if (integrity.canonicalization !== undefined && integrity.canonicalization !== "RFC8785") report.fail("canonicalization", `${integrity.canonicalization}, not RFC8785`);

  /** @type {Record<string, any>[]} */
  let candidates = [];
  let from = "";
  const payloadArg = str(args, "payload");
  if (isSignatureAnswer) {
    candidates = [asObject(input.signed_payload, "signed_payload")];
    from = "the signature answer";
  } else if (payloadArg) {
    const p = asObject(await readJson(payloadArg, "payload"), "the payload");
    if ("signed_payload" in p) {
      report.expect("signature answer is about this record", p.signature === integrity.signature && p.signing_key_id === integrity.signing_key_id && p.verification_id === rec?.verification_id,
        `${p.verification_id}, same signature and key`, "the signature answer carries another signature, key or record id than the record's integrity");
      candidates = [asObject(p.signed_payload, "signed_payload")];
    } else candidates = [p];
    from = payloadArg;
  } else if (typeof rec?.signature_url === "string" && isUrl(rec.signature_url) && !args.values.offline) {
    const p = asObject(await readJson(rec.signature_url, "signature answer"), "the signature answer");
    report.expect("signature answer is about this record", p.signature === integrity.signature && p.signing_key_id === integrity.signing_key_id && p.verification_id === rec.verification_id,
      `${rec.signature_url}`, `${rec.signature_url} carries another signature, key or record id than the record's integrity`);
    candidates = [asObject(p.signed_payload, "signed_payload")];
    from = rec.signature_url;
  } else {
    candidates = payloadsFromRecord(/** @type {Record<string, any>} */ (rec));
    from = "the record's own fields (rebuilt as docs/api.md §12 describes)";
  }

  // The payload whose hash the record states; a rebuilt one may need its second form.
  const hashes = candidates.map((c) => toHex(sha256(canonicalBytes(c))));
  const at = hashes.indexOf(integrity.payload_sha256);
  const payload = /** @type {Record<string, any>} */ (candidates[Math.max(0, at)]);
  if (!report.expect("payload_sha256", at >= 0, `SHA-256 of the canonical payload from ${from}`,
    `the canonical payload from ${from} hashes to ${hashes[0]}, the record says ${integrity.payload_sha256}${isSignatureAnswer || payloadArg ? "" : "; give --payload (the signed_payload from /api/v1/records/{id}/signature) or drop --offline"}`)) {
    return report;
  }
  checkSignature(report, "record", payload, integrity.signature, integrity.signing_key_id, jwks);
  if (rec) compareRecordWithPayload(report, rec, payload);
  else report.note("record", "a signature answer: the record's current status is what `prs-verify status` checks");
  report.facts.signed_payload = payload;
  return report;
}

// ---------------------------------------------------------------- signed answers

/**
 * The transparency_log block of a signed status.
 * @param {Report} report @param {Record<string, any>} answer
 * @param {import("./note.js").NoteVerifier | null} logKey
 * @param {import("./note.js").WitnessPolicy | null} policy
 */
function checkStatusLog(report, answer, logKey, policy) {
  if (!("transparency_log" in answer)) return report.note("transparency log", "the answer has no transparency_log field");
  const tl = answer.transparency_log;
  if (tl === null) return report.note("transparency log", "null: the latest change is not yet covered by a published checkpoint");
  if (!tl || typeof tl !== "object") return report.fail("transparency log", "transparency_log is neither an object nor null");
  const cp = checkCheckpoint(report, "log checkpoint", tl.checkpoint, logKey, policy);
  if (!cp) return;
  const root = typeof tl.root_hash === "string" ? fromBase64(tl.root_hash) : null;
  report.expect("log root hash", root !== null && bytesEqual(root, cp.rootHash), "root_hash is the checkpoint's root",
    `root_hash ${JSON.stringify(tl.root_hash)} is not the checkpoint's root ${toBase64(cp.rootHash)}`);
  const leaf = checkEntry(report, "log entry", tl, cp);
  if (!leaf) return;
  report.expect("log entry is this record", leaf.verification_id === answer.verification_id && leaf.environment === answer.environment,
    `${leaf.verification_id} (${leaf.environment})`, `the leaf is about ${leaf.verification_id} (${leaf.environment}), the answer about ${answer.verification_id} (${answer.environment})`);
  if (leaf.status === answer.status) report.pass("log entry status", `${leaf.status} in the log and in the answer`);
  else if (leaf.status === "active" && answer.status === "expired") report.note("log entry status", "expiry not yet logged: the answer says expired, the latest logged entry active (the sweep logs it within about a minute)");
  else report.fail("log entry status", `the answer says ${answer.status}, the latest logged entry ${leaf.status}`);
}

/**
 * Who a signed answer says made the statement: a verified organisation by its legal name, any
 * other name as self-declared (CONTRACT "The speaking account").
 * @param {Record<string, any>} acct
 */
function speakerOf(acct) {
  if (acct.name_verified === true && acct.organisation) return `${acct.organisation.legal_name} (verified organisation${acct.organisation.lei ? `, LEI ${acct.organisation.lei}` : ""})`;
  return acct.name ? `an account calling itself "${acct.name}" (name not verified)` : "an unnamed account";
}

/**
 * @param {"status" | "lookup" | "check"} kind @param {Args} args
 */
export async function answer(kind, args) {
  const report = new Report(kind);
  const source = onlyInput(args, `${kind} answer`);
  const a = asObject(await readJson(source, `${kind} answer`), `the ${kind} answer`);
  const jwks = await loadJwks(str(args, "jwks"), source, report);
  const logKeyArg = str(args, "log-key");
  const logKey = kind === "status" && logKeyArg ? await loadLogKey(logKeyArg) : null;
  const policy = kind === "status" ? await loadWitnessPolicy(args.values) : null;
  const signatureField = kind === "status" ? "status_signature" : "signature";
  if (kind === "status") {
    report.facts = {
      verification_id: a.verification_id, status: a.status, environment: a.environment, as_of: a.as_of, ...(a.at ? { at: a.at } : {}),
      ...(a.account && typeof a.account === "object" ? { speaker: speakerOf(a.account) } : {}),
    };
  }
  if (kind === "lookup") report.facts = { query: a.query, normalized: a.normalized, type: a.type, result: a.result, matches: Array.isArray(a.matches) ? a.matches.length : null, as_of: a.as_of };
  if (kind === "check") {
    const parts = a.parts && typeof a.parts === "object" ? a.parts : a;
    report.facts = {
      ...(a.overall ? { overall: a.overall } : {}),
      ...Object.fromEntries(["operator", "website", "payee"].filter((p) => parts[p]).map((p) => [p, {
        given: parts[p].given, verdict: parts[p].verdict, on_record_for: parts[p].on_record_for, name_verified: parts[p].name_verified ?? false, as_of: parts[p].as_of,
      }])),
    };
  }
  checkSignedAnswer(report, kind, a, signatureField, jwks);
  const id = str(args, "id");
  if (id !== undefined && kind === "status") report.expect("record id", a.verification_id === id, id, `the answer is about ${a.verification_id}, not ${id}`);
  if (kind === "status") checkStatusLog(report, a, logKey, policy);
  return report;
}

// ---------------------------------------------------------------- inclusion

/** @param {Args} args */
export async function inclusion(args) {
  const report = new Report("inclusion");
  const logKeyArg = str(args, "log-key");
  const logKey = logKeyArg ? await loadLogKey(logKeyArg) : null;
  const policy = await loadWitnessPolicy(args.values);
  const from = str(args, "from");
  if (from) {
    const a = asObject(await readJson(from, "record log answer"), "the record log answer");
    report.facts = { verification_id: a.verification_id };
    const cp = checkCheckpoint(report, "checkpoint", a.checkpoint, logKey, policy);
    if (!cp) return report;
    report.facts.tree_size = cp.size;
    if (!Array.isArray(a.entries)) return report.fail("entries", "the answer has no entries list"), report;
    if (a.entries.length === 0) report.note("entries", "the record has no logged entries in this checkpoint");
    /** @type {string[]} */
    const history = [];
    let lastIndex = -1;
    for (const e of a.entries) {
      const label = `entry ${e?.index}`;
      const leaf = checkEntry(report, label, e, cp);
      if (typeof e?.index === "number" && e.index <= lastIndex) report.fail(`${label} order`, "entries are not in increasing index order");
      lastIndex = typeof e?.index === "number" ? e.index : lastIndex;
      if (leaf && leaf.verification_id !== a.verification_id) report.fail(`${label} record`, `the leaf is about ${leaf.verification_id}, the answer about ${a.verification_id}`);
      if (leaf) history.push(`${leaf.status} (${leaf.event}, ${leaf.at})`);
    }
    report.facts.logged_history = history;
    return report;
  }

  const cpArg = str(args, "checkpoint");
  if (!cpArg) throw new InputError("give --checkpoint <file|URL> (or --from <record log answer>)");
  const cp = checkCheckpoint(report, "checkpoint", await readText(cpArg, "checkpoint"), logKey, policy);
  if (!cp) return report;
  const index = wholeNumber(str(args, "index"), "index");
  const proofArg = str(args, "proof");
  if (proofArg === undefined) throw new InputError("give --proof hex,hex,… (\"\" for a tree of one)");
  const proof = await loadHexList(proofArg, "--proof");
  /** @type {Uint8Array} */
  let hash;
  const leafArg = str(args, "leaf");
  const hashArg = str(args, "leaf-hash");
  if ((leafArg === undefined) === (hashArg === undefined)) throw new InputError("give either --leaf <file> or --leaf-hash <hex>");
  if (leafArg !== undefined) {
    let text = await readText(leafArg, "leaf");
    if (/\r?\n$/.test(text)) {
      text = text.replace(/\r?\n$/, "");
      report.note("leaf", "a final newline in the file was dropped (canonical JSON has none)");
    }
    try {
      const leaf = parseLeaf(text);
      report.pass("leaf", `${leaf.event} ${leaf.verification_id ?? "(signing key)"} → ${leaf.status} at ${leaf.at}`);
    } catch (e) {
      report.fail("leaf", /** @type {Error} */ (e).message);
    }
    hash = leafHash(utf8.encode(text));
  } else {
    const h = fromHex(/** @type {string} */ (hashArg));
    if (!h || h.length !== 32) throw new InputError("--leaf-hash must be 64 hex digits");
    hash = h;
  }
  report.facts = { index, tree_size: cp.size, leaf_hash: toHex(hash) };
  const r = verifyInclusion(index, cp.size, hash, proof, cp.rootHash);
  report.expect("inclusion", r.ok, `leaf ${index} is in the tree of ${cp.size} under the checkpoint's root`, r.ok ? "" : r.error);
  return report;
}

// ---------------------------------------------------------------- consistency

/** @param {Args} args */
export async function consistency(args) {
  const report = new Report("consistency");
  const logKeyArg = str(args, "log-key");
  if (!logKeyArg) throw new InputError("give --log-key <vkey|file|URL>: checkpoints without their signatures prove nothing");
  const logKey = await loadLogKey(logKeyArg);
  const oldArg = str(args, "old");
  if (!oldArg) throw new InputError("give --old <checkpoint file>");
  const log = str(args, "log")?.replace(/\/+$/, "");
  const newArg = str(args, "new") ?? (log ? `${log}/log/checkpoint` : undefined);
  if (!newArg) throw new InputError("give --new <checkpoint file|URL> (or --log <base URL> to read its checkpoint)");
  const policy = await loadWitnessPolicy(args.values);
  const olderNote = await readText(oldArg, "old checkpoint");
  const newerNote = await readText(newArg, "new checkpoint");
  const older = verifyCheckpoint(olderNote, logKey);
  const newer = verifyCheckpoint(newerNote, logKey);
  if (policy) {
    // Both ends: a tree nobody else saw proves nothing about the history others were shown.
    for (const [label, note] of /** @type {const} */ ([["old checkpoint witnesses", olderNote], ["new checkpoint witnesses", newerNote]])) {
      const w = witnessVerdict(note, policy);
      report.expect(label, w.ok, w.detail, w.detail);
    }
  }
  if (!older.ok) report.fail("old checkpoint signature", older.error);
  else report.pass("old checkpoint signature", `${logKey.name}, tree size ${older.checkpoint.size}`);
  if (!newer.ok) report.fail("new checkpoint signature", newer.error);
  else report.pass("new checkpoint signature", `${logKey.name}, tree size ${newer.checkpoint.size}`);
  if (!older.ok || !newer.ok || !report.ok) return report;
  const a = older.checkpoint;
  const b = newer.checkpoint;
  report.facts = { old_size: a.size, new_size: b.size };
  const r = await consistencyOf(report, a, b, str(args, "proof"), log);
  if (r) report.expect("consistency", r.ok, `the tree of ${a.size} is a prefix of the tree of ${b.size}`, r.ok ? "" : r.error);
  return report;
}

/**
 * Whether checkpoint b extends checkpoint a: with a given proof, or one built from the
 * log's tiles. Null when there is nothing to check it with (reported).
 * @param {Report} report @param {import("./note.js").Checkpoint} a @param {import("./note.js").Checkpoint} b
 * @param {string | undefined} proofArg @param {string | undefined} log
 * @returns {Promise<import("./merkle.js").Outcome | null>}
 */
export async function consistencyOf(report, a, b, proofArg, log) {
  if (a.size === 0) {
    return Buffer.from(a.rootHash).equals(Buffer.from(EMPTY_ROOT)) ? { ok: true } : { ok: false, error: "the old checkpoint has size 0 but not the empty tree's root" };
  }
  if (b.size < a.size) return { ok: false, error: `the new checkpoint's tree (${b.size}) is smaller than the old one's (${a.size}): the log shrank` };
  if (proofArg !== undefined) return verifyConsistency(a.size, b.size, await loadHexList(proofArg, "--proof"), a.rootHash, b.rootHash);
  if (a.size === b.size) return verifyConsistency(a.size, b.size, [], a.rootHash, b.rootHash);
  if (!log) throw new InputError("give --proof or --log <base URL> to build the proof from the log's tiles");
  const tiles = new TileReader(log);
  const proof = await consistencyProof(tiles.nodeReader(b.size), a.size, b.size);
  report.note("proof", `built from ${tiles.fetched} tile${tiles.fetched === 1 ? "" : "s"} of ${log}/log/ (${proof.length} hashes)`);
  return verifyConsistency(a.size, b.size, proof, a.rootHash, b.rootHash);
}
