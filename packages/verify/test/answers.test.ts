import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import canonicalize from "canonicalize";
import { createHash, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { checkpointOf, leaf, leafHashOf, mth, noteKey, path as inclusionPath, serviceKey } from "./independent.js";

const dir = mkdtempSync(path.join(tmpdir(), "prs-verify-answers-"));
let n = 0;
const file = (value: unknown) => {
  const p = path.join(dir, `f${n++}.json`);
  writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return p;
};

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`) });
  return { code, out, err };
}

const svc = serviceKey();
const jwks = file(svc.jwks);
const ID = "PRS-J1ZTSV5G7MYSMT0RH585";
const statusFields = {
  verification_id: ID, status: "active", environment: "live", verified: true, account: { name: "Acme Trading Ltd", verified_domains: [] },
  claim_type: "company_status", subject: "Acme Trading Ltd", websites: [], evidence_level: "source_verified",
  issued_at: "2026-11-24T02:02:05.588Z", expires_at: "2027-11-24T02:02:05.588Z", status_changed_at: "2026-11-24T02:02:05.588Z",
  as_of: "2026-11-24T02:02:06.042Z", certificate_url: `https://proof.example/r/${ID}`,
};

describe("signed status, lookup and check answers", () => {
  it("a signed status verifies", async () => {
    const r = await run("status", file(svc.signWith(statusFields, "status_signature")), "--jwks", jwks, "--id", ID);
    expect(r.out).toMatch(/ok {4}status: signature: Ed25519 by prs-test-01/);
    expect(r.out).toMatch(/VERIFIED \(status\)/);
    expect(r.code).toBe(0);
  });

  it("a changed field fails, saying the signature does not verify", async () => {
    const signed = svc.signWith(statusFields, "status_signature");
    const r = await run("status", file({ ...signed, status: "revoked" }), "--jwks", jwks);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}status: signature: does not verify with key prs-test-01/);
  });

  it("an answer for another record than --id fails", async () => {
    const r = await run("status", file(svc.signWith(statusFields, "status_signature")), "--jwks", jwks, "--id", "PRS-0000000000000000000X");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}record id: the answer is about PRS-J1ZTSV5G7MYSMT0RH585/);
  });

  it("a key that is not published fails", async () => {
    const other = serviceKey("prs-other");
    const r = await run("status", file(other.signWith(statusFields, "status_signature")), "--jwks", jwks);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/no key with kid "prs-other"/);
  });

  it("a small-order public key is refused, even with the signature it accepts for anything", async () => {
    // x = the identity point; R = identity, S = 0 satisfies the cofactorless equation for
    // every message under it.
    const weak = { keys: [{ kty: "OKP", crv: "Ed25519", x: Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]).toString("base64url"), kid: "weak", use: "sig", alg: "EdDSA" }] };
    const forged = Buffer.concat([Buffer.from([1]), Buffer.alloc(63)]).toString("base64url");
    const r = await run("status", file({ ...statusFields, signing_key_id: "weak", status_signature: forged }), "--jwks", file(weak));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}status: signing key: key weak: a weak key \(a point of small order\)/);
  });

  it("a non-canonical S (S + L) is refused", async () => {
    const signed = svc.signWith(statusFields, "status_signature");
    const sig = Buffer.from(signed.status_signature as string, "base64url");
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]!);
    s += L;
    for (let i = 32; i < 64; i++, s >>= 8n) sig[i] = Number(s & 255n);
    const r = await run("status", file({ ...signed, status_signature: sig.toString("base64url") }), "--jwks", jwks);
    expect(r.code).toBe(1);
  });

  it("lookup and check answers verify, and fail when changed", async () => {
    const lookup = svc.signWith({ query: "NL91 ABNA 0417 1643 00", normalized: "NL91ABNA0417164300", type: "iban", result: "no_match", matches: [], as_of: "2026-11-24T02:02:09.269Z" }, "signature");
    expect((await run("lookup", file(lookup), "--jwks", jwks)).code).toBe(0);
    const lied = await run("lookup", file({ ...lookup, result: "verified" }), "--jwks", jwks);
    expect(lied.code).toBe(1);
    expect(lied.out).toMatch(/FAIL {2}lookup: signature/);

    const part = { given: "example.com", normalized: "example.com", verdict: "match", on_record_for: "Acme", evidence_level: "source_verified", verification_id: ID, certificate_url: statusFields.certificate_url, as_of: "2026-11-24T02:02:09.269Z" };
    const check = svc.signWith({ website: part }, "signature");
    const ok = await run("check", file(check), "--jwks", jwks, "--json");
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ command: "check", verified: true, website: { verdict: "match" } });
    expect((await run("check", file({ ...check, website: { ...part, verdict: "mismatch" } }), "--jwks", jwks)).code).toBe(1);
  });

  it("usage and input errors exit 2", async () => {
    expect((await run("status")).code).toBe(2);
    expect((await run("status", file(statusFields))).code).toBe(2); // no --jwks for a file
    expect((await run("status", path.join(dir, "missing.json"), "--jwks", jwks)).code).toBe(2);
    expect((await run("status", file("not json"), "--jwks", jwks)).code).toBe(2);
    expect((await run("lookup", file({}), "--jwks", jwks, "--log-key", "x")).code).toBe(2); // lookup takes no log key
    expect((await run("frobnicate")).code).toBe(2);
  });
});

describe("a signed status with its transparency log entry", () => {
  const origin = "proof.example/log";
  const key = noteKey(origin);
  const leaves = [
    leaf({ verification_id: null, event: "signing_key_published", status: "active", at: "2026-11-24T02:00:00.000Z" }),
    leaf({ verification_id: ID, event: "issued", status: "active", at: "2026-11-24T02:02:05.588Z" }),
    leaf({ verification_id: "PRS-OTHER000000000000000", event: "issued", status: "active", at: "2026-11-24T02:02:05.600Z" }),
    leaf({ verification_id: ID, event: "status_changed", status: "suspended", at: "2026-11-24T02:03:00.000Z" }),
    leaf({ verification_id: "PRS-OTHER000000000000000", event: "status_changed", status: "revoked", at: "2026-11-24T02:04:00.000Z" }),
  ];
  const hashes = leaves.map(leafHashOf);
  const checkpoint = checkpointOf(origin, leaves, key);
  const tl = (index: number) => ({
    index, leaf: leaves[index], leaf_hash: hashes[index]!.toString("hex"), tree_size: leaves.length,
    root_hash: mth(hashes).toString("base64"), inclusion_proof: inclusionPath(index, hashes).map((h) => h.toString("hex")), checkpoint,
  });
  const suspended = { ...statusFields, status: "suspended", verified: false, status_changed_at: "2026-11-24T02:03:00.000Z" };

  it("verifies the note, the leaf hash, the inclusion and that the leaf is this record's status", async () => {
    const r = await run("status", file(svc.signWith({ ...suspended, transparency_log: tl(3) }, "status_signature")), "--jwks", jwks, "--log-key", key.vkey);
    expect(r.out).toMatch(/ok {4}log checkpoint signature: signed by proof.example\/log; tree size 5/);
    expect(r.out).toMatch(/ok {4}log entry inclusion: leaf 3 is in the tree of 5/);
    expect(r.out).toMatch(/ok {4}log entry status: suspended in the log and in the answer/);
    expect(r.code).toBe(0);
  });

  it("fails when the logged status is not the answer's", async () => {
    const r = await run("status", file(svc.signWith({ ...statusFields, transparency_log: tl(3) }, "status_signature")), "--jwks", jwks, "--log-key", key.vkey);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}log entry status: the answer says active, the latest logged entry suspended/);
  });

  it("fails for another record's leaf, a wrong proof, or a checkpoint signed by another key", async () => {
    const other = await run("status", file(svc.signWith({ ...suspended, status: "revoked", transparency_log: tl(4) }, "status_signature")), "--jwks", jwks, "--log-key", key.vkey);
    expect(other.code).toBe(1);
    expect(other.out).toMatch(/FAIL {2}log entry is this record: the leaf is about PRS-OTHER/);

    const badProof = { ...tl(3), inclusion_proof: tl(2).inclusion_proof };
    const wrong = await run("status", file(svc.signWith({ ...suspended, transparency_log: badProof }, "status_signature")), "--jwks", jwks, "--log-key", key.vkey);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/FAIL {2}log entry inclusion: the proof leads to root/);

    const impostor = noteKey(origin);
    const forged = { ...tl(3), checkpoint: checkpointOf(origin, leaves, impostor) };
    const r = await run("status", file(svc.signWith({ ...suspended, transparency_log: forged }, "status_signature")), "--jwks", jwks, "--log-key", key.vkey);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}log checkpoint signature: no signature by proof.example\/log\+/);
  });

  it("an active leaf under an expired answer is an expiry not yet logged, not a failure", async () => {
    const expired = { ...statusFields, status: "expired", verified: false, transparency_log: tl(1) };
    const r = await run("status", file(svc.signWith(expired, "status_signature")), "--jwks", jwks, "--log-key", key.vkey);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/note {2}log entry status: expiry not yet logged/);
  });

  it("without a log key the checkpoint's signature is reported as unchecked; null means not yet in a checkpoint", async () => {
    const r = await run("status", file(svc.signWith({ ...suspended, transparency_log: tl(3) }, "status_signature")), "--jwks", jwks);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/skip {2}log checkpoint signature: not checked/);
    const pending = await run("status", file(svc.signWith({ ...suspended, transparency_log: null }, "status_signature")), "--jwks", jwks, "--log-key", key.vkey);
    expect(pending.code).toBe(0);
    expect(pending.out).toMatch(/note {2}transparency log: null/);
  });

  it("a malformed or weak log key is an input error", async () => {
    expect((await run("status", file(svc.signWith(suspended, "status_signature")), "--jwks", jwks, "--log-key", "a+b+c")).code).toBe(2);
  });
});

describe("record signatures", () => {
  const payload = {
    id: ID, claim: "Acme Trading Ltd is an active company registered in England and Wales.", issuer: "https://proof.example", account: { name: "Acme Trading Ltd" },
    subject: "Acme Trading Ltd", evidence: {}, issued_at: "2026-11-24T02:02:05.588Z", claim_type: "company_status", expires_at: "2027-11-24T02:02:05.588Z",
    valid_from: "2026-11-24T02:02:05.588Z", environment: "live", evidence_level: "source_verified",
  };
  const bytes = Buffer.from(canonicalize(payload) as string);
  // A record's signature covers the bare payload (no signing_key_id inside).
  const recordSig = sign(null, bytes, svc.privateKey).toString("base64url");
  const integrity = { algorithm: "Ed25519", canonicalization: "RFC8785", signing_key_id: svc.kid, payload_sha256: createHash("sha256").update(bytes).digest("hex"), signature: recordSig };
  const rec = {
    object: "record", verification_id: ID, status: "active", environment: "live", verified: true, account: { name: "Acme Trading Ltd", verified_domains: [] },
    claim_type: payload.claim_type, subject: payload.subject, claim: payload.claim, websites: [], evidence_level: payload.evidence_level, visibility: "public", evidence: {},
    certificate_url: `https://proof.example/r/${ID}`, signature_url: `https://proof.example/api/v1/records/${ID}/signature`,
    lifecycle: { status: "active", issued_at: payload.issued_at, valid_from: payload.valid_from, expires_at: payload.expires_at, recheck_at: null, status_changed_at: payload.issued_at, history: [] },
    integrity, created_at: payload.issued_at,
  };
  const sigAnswer = { verification_id: ID, valid: true, ...integrity, signed_payload: payload, checked_at: "2026-11-24T02:02:06.085Z" };

  it("a signature answer verifies on its own", async () => {
    const r = await run("record", file(sigAnswer), "--jwks", jwks);
    expect(r.out).toMatch(/ok {4}payload_sha256/);
    expect(r.code).toBe(0);
  });

  it("a record verifies with --payload, and offline from its own fields", async () => {
    expect((await run("record", file(rec), "--jwks", jwks, "--payload", file(sigAnswer))).code).toBe(0);
    const offline = await run("record", file(rec), "--jwks", jwks, "--offline");
    expect(offline.out).toMatch(/rebuilt/);
    expect(offline.code).toBe(0);
  });

  it("a record showing something else than was signed fails, naming the field", async () => {
    const r = await run("record", file({ ...rec, claim: "Acme is a bank." }), "--jwks", jwks, "--payload", file(sigAnswer));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL {2}record matches what was signed: claim: the record shows "Acme is a bank."/);
    const offline = await run("record", file({ ...rec, subject: "Acme Bank" }), "--jwks", jwks, "--offline");
    expect(offline.code).toBe(1);
    expect(offline.out).toMatch(/FAIL {2}payload_sha256/);
  });

  it("a changed payload or signature fails; an unissued record fails", async () => {
    const changed = await run("record", file({ ...sigAnswer, signed_payload: { ...payload, evidence_level: "evidence_verified" } }), "--jwks", jwks);
    expect(changed.code).toBe(1);
    expect(changed.out).toMatch(/FAIL {2}payload_sha256/);
    const bad = await run("record", file({ ...sigAnswer, signature: sigAnswer.signature.replace(/^./, (c) => (c === "A" ? "B" : "A")) }), "--jwks", jwks);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/FAIL {2}record: signature/);
    const pending = await run("record", file({ ...rec, status: "pending_review", integrity: null }), "--jwks", jwks);
    expect(pending.code).toBe(1);
    expect(pending.out).toMatch(/not issued/);
  });
});
