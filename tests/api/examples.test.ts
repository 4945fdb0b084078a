import * as ecc from "@bitcoinerlab/secp256k1";
import { ed25519 } from "@noble/curves/ed25519.js";
import { Signer } from "bip322-js";
import * as bitcoin from "bitcoinjs-lib";
import bitcoinMessage from "bitcoinjs-message";
import bs58 from "bs58";
import canonicalize from "canonicalize";
import { ECPairFactory } from "ecpair";
import { createHash, generateKeyPairSync, randomUUID, sign as nodeSign } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createLocalJWKSet, importJWK } from "jose";
import { verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chainClients } from "../chain/contracts";
import { writeExchange } from "../exchange";
import { LEI } from "../lei-register";
import { admin, baseUrl, call, companyStatus, issue, newAccount, newLiveAccount, setDns, until, untilPast, type Res } from "../helpers";
import { canonicalSha256, verifyWithJwks } from "../signatures";
import { startReceiver, waitFor } from "../webhook-receiver";
import { usageMonth } from "../usage-month";

/**
 * The request/response examples of docs/api.md, taken from this run against the started
 * server. Every exchange is asserted on, so the documentation cannot show an answer the
 * service no longer gives. With PRS_WRITE_EXAMPLES=1 each exchange is also written to
 * docs/examples/<name>.json (then `node scripts/build-api-docs.mjs` renders docs/api.md);
 * without it, nothing is written.
 */

const WRITE = process.env.PRS_WRITE_EXAMPLES === "1";
const OUT_DIR = path.resolve(import.meta.dirname, "..", "..", "docs", "examples");
const DOC_BASE = "https://proof.example";
const SHOWN_RESPONSE_HEADERS = [
  "content-type", "cache-control", "idempotent-replayed", "access-control-allow-origin", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset",
  "retry-after", "request-id",
];
const RECORD_ID = /^PRS-[0-9A-HJKMNP-TV-Z]{20}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type ExchangeOpts = { key?: string; body?: unknown; idem?: string | null };
type Recorded = {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { status: number; headers: Record<string, string>; body: unknown; omitted_keys?: string[] };
};

/** How many signatures each example's answer carried that this file verified (expectSignaturesVerify). */
const signaturesVerified = new Map<string, number>();

/** Every API key handed out in this file, so a recorded example can be checked for leaks. */
const secrets = new Set<string>();

const hideKey = (authorization: string) => authorization.replace(/\b(prs_(?:sandbox|live)_)[0-9A-Za-z]+/, "$1…");

/** Replace the test server's address (and host, as wallet messages name it) in every string so the examples read like production. */
function rebase<T>(value: T): T {
  const base = baseUrl();
  const host = new URL(base).host;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return v.split(base).join(DOC_BASE).split(host).join(new URL(DOC_BASE).host);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

function record(name: string, ex: Recorded) {
  if (!WRITE) return;
  const text = JSON.stringify(rebase(ex), null, 2) + "\n";
  for (const s of secrets) if (text.includes(s)) throw new Error(`example ${name} would publish an API key`);
  if (text.includes(baseUrl()) || text.includes(new URL(baseUrl()).host)) throw new Error(`example ${name} still names the test server`);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.writeFileSync(path.join(OUT_DIR, `${name}.json`), text);
}

/**
 * One documented call: sent exactly as recorded (the headers are built here, not by the
 * helper), answered by the real server, recorded under `name` (when writing is on).
 */
async function exchange<T = any>(
  name: string,
  method: string,
  p: string,
  opts: ExchangeOpts & { omitKeys?: (body: T) => { shown: unknown; omitted: string[] } } = {},
): Promise<Res<T>> {
  const headers: Record<string, string> = {};
  if (opts.key) {
    secrets.add(opts.key);
    headers.Authorization = `Bearer ${opts.key}`;
  }
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "POST" && /\/api\/v1\/records(\/batch)?$/.test(p) && opts.idem !== null) headers["Idempotency-Key"] = opts.idem ?? randomUUID();
  const res = await call<T>(method, p, { body: opts.body, headers, idem: null });

  const shownRequestHeaders = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, k === "Authorization" ? hideKey(v) : v]),
  );
  const shownResponseHeaders: Record<string, string> = {};
  for (const h of SHOWN_RESPONSE_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) shownResponseHeaders[h] = v;
  }
  if (res.status < 300) signaturesVerified.set(name, await expectSignaturesVerify(res.body, name));
  const omitted = opts.omitKeys?.(res.body);
  record(name, {
    request: { method, path: p, headers: shownRequestHeaders, ...(opts.body !== undefined && { body: opts.body }) },
    response: {
      status: res.status,
      headers: shownResponseHeaders,
      body: omitted ? omitted.shown : (res.body ?? res.text),
      ...(omitted && { omitted_keys: omitted.omitted }),
    },
  });
  return res;
}

/**
 * Every signed thing an example shows, verified here with independent code only (jose reads the
 * published JWKS, canonicalize encodes RFC 8785, WebCrypto verifies Ed25519: tests/signatures.ts),
 * never by the service's own `valid`: a record's `integrity.signature` over its signed payload
 * (read from its signature URL, hashed to `payload_sha256`); a signature answer's `signature`
 * over its `signed_payload`; a signed status (`status_signature`) and a signed answer
 * (`signature` with `signing_key_id` and `as_of`: lookup, check) over the rest of the object.
 * Returns how many it verified.
 */
async function expectSignaturesVerify(body: unknown, where: string): Promise<number> {
  let n = 0;
  const visit = async (v: unknown): Promise<void> => {
    if (Array.isArray(v)) {
      for (const x of v) await visit(x);
      return;
    }
    if (!v || typeof v !== "object") return;
    const o = v as Record<string, any>;
    if (typeof o.status_signature === "string") {
      const { status_signature, ...rest } = o;
      expect(await verifyWithJwks(rest, status_signature, rest.signing_key_id), `${where}: status_signature`).toBe(true);
      n++;
    } else if (o.signed_payload && typeof o.signature === "string") {
      expect(canonicalSha256(o.signed_payload), `${where}: payload_sha256`).toBe(o.payload_sha256);
      expect(await verifyWithJwks(o.signed_payload, o.signature, o.signing_key_id), `${where}: signature over signed_payload`).toBe(true);
      n++;
      return;
    } else if (typeof o.signature === "string" && typeof o.signing_key_id === "string" && typeof o.as_of === "string") {
      const { signature, ...rest } = o;
      expect(await verifyWithJwks(rest, signature, rest.signing_key_id), `${where}: answer signature`).toBe(true);
      n++;
    }
    if (typeof o.integrity?.signature === "string" && typeof o.verification_id === "string") {
      const signed = (await call("GET", `/api/v1/records/${o.verification_id}/signature`)).body.signed_payload;
      expect(signed?.id, `${where}: the signed payload of ${o.verification_id}`).toBe(o.verification_id);
      expect(canonicalSha256(signed), `${where}: ${o.verification_id} payload_sha256`).toBe(o.integrity.payload_sha256);
      expect(await verifyWithJwks(signed, o.integrity.signature, o.integrity.signing_key_id), `${where}: ${o.verification_id} integrity.signature`).toBe(true);
      // What the record shows is what was signed.
      expect(signed, `${where}: ${o.verification_id} shows what was signed`).toMatchObject({ subject: o.subject, claim_type: o.claim_type, claim: o.claim, environment: o.environment });
      n++;
    }
    for (const x of Object.values(o)) await visit(x);
  };
  await visit(body);
  return n;
}

/** Independent check of a status answer: jose reads the JWKS, canonicalize encodes, WebCrypto verifies. */
async function statusSignatureValid(answer: Record<string, unknown>): Promise<boolean> {
  const { status_signature, ...rest } = answer;
  const jwks = createLocalJWKSet((await call("GET", "/.well-known/jwks.json")).body);
  const key = (await jwks({ alg: "EdDSA", kid: String(rest.signing_key_id) })) as CryptoKey;
  const bytes = new TextEncoder().encode(canonicalize(rest)!);
  return crypto.subtle.verify("Ed25519", key, Buffer.from(String(status_signature), "base64url"), bytes);
}

function expectError(res: Res, status: number, type: string, code: string, param?: string) {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ type, code, ...(param !== undefined && { param }) });
  expect(res.body.error.message).toEqual(expect.any(String));
  expect(res.body.error.request_id).toBe(res.headers.get("request-id"));
  expect(res.body.error.request_id).toMatch(/^req_[0-9a-z]{20}$/);
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString().slice(0, 13) + ":00:00Z";

describe("documented examples (docs/api.md)", () => {
  let sandboxKey = "";
  let live: Awaited<ReturnType<typeof newLiveAccount>>;
  let liveIssuedIn = ""; // the usage month (UTC) of the live record issued below
  let created: any;
  let successorId = "";

  const createBody = companyStatus({
    subject: "Acme Trading Ltd",
    claim: "Acme Trading Ltd is an active company registered in England and Wales.",
    visibility: undefined, // a sandbox record is private whatever was asked: the example does not ask
  });
  const createKey = randomUUID();

  beforeAll(async () => {
    ({ sandboxKey } = await newAccount("docs"));
    secrets.add(sandboxKey);
    live = await newLiveAccount("growth");
    secrets.add(live.sandboxKey).add(live.liveKey);
    // The examples' accounts go by a name, as a customer's would: their records say who is speaking.
    for (const key of [sandboxKey, live.liveKey]) {
      expect((await call("PATCH", "/api/v1/account", { key, body: { name: "Acme Trading Ltd" } })).status).toBe(200);
    }
  });

  // ---- POST /api/v1/records -------------------------------------------------------------

  it("create_record: 201 issues a company_status record", async () => {
    const r = await exchange("create_record", "POST", "/api/v1/records", { key: sandboxKey, body: createBody, idem: createKey });
    expect(r.status).toBe(201);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    const rec = r.body;
    expect(rec.verification_id).toMatch(RECORD_ID);
    expect(rec).toMatchObject({
      object: "record", status: "active", environment: "sandbox", verified: false, claim_type: "company_status",
      subject: createBody.subject, claim: createBody.claim, evidence_level: "participant_attested", visibility: "private",
      evidence: {}, review: null, superseded_by: null,
      certificate_url: `${baseUrl()}/r/${rec.verification_id}`,
      qr_url: `${baseUrl()}/r/${rec.verification_id}/qr`,
      signature_url: `${baseUrl()}/api/v1/records/${rec.verification_id}/signature`,
      status_url: `${baseUrl()}/api/v1/records/${rec.verification_id}/status`,
      integrity: { algorithm: "Ed25519", canonicalization: "RFC8785" },
    });
    expect(rec.integrity.payload_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rec.integrity.signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(rec.created_at).toMatch(TIMESTAMP);
    expect(rec.lifecycle).toMatchObject({ status: "active", issued_at: rec.created_at, valid_from: rec.created_at, recheck_at: null });
    expect((Date.parse(rec.lifecycle.expires_at) - Date.parse(rec.lifecycle.issued_at)) / 86_400_000).toBe(365);
    expect(rec.lifecycle.history).toEqual([{ status: "active", at: rec.created_at, reason: "Issued.", by: "owner" }]);
    created = rec;
  });

  it("create_record_replay: same key and body → 200 with Idempotent-Replayed, the original answer", async () => {
    const r = await exchange("create_record_replay", "POST", "/api/v1/records", { key: sandboxKey, body: createBody, idem: createKey });
    expect(r.status).toBe(200);
    expect(r.headers.get("idempotent-replayed")).toBe("true");
    expect(r.body).toEqual(created);
    const list = await call("GET", "/api/v1/records", { key: sandboxKey });
    expect(list.body.data).toHaveLength(1);
  });

  it("error_idempotency_key_reused: same key, different body → 422", async () => {
    const r = await exchange("error_idempotency_key_reused", "POST", "/api/v1/records", {
      key: sandboxKey, body: { ...createBody, subject: "Acme Holdings Ltd" }, idem: createKey,
    });
    expectError(r, 422, "idempotency_error", "idempotency_key_reused");
  });

  it("create_record_pending_review: a claim type without a connector → 202 pending_review", async () => {
    const checkedAt = hoursAgo(30);
    const body = {
      subject: "Acme Trading Ltd",
      claim_type: "press_coverage",
      claim: "Acme Trading Ltd was featured in the Financial Times.",
      source_name: "Financial Times",
      source_url: "https://www.ft.com/content/acme-trading",
      checked_at: checkedAt,
      evidence: { note: "Print edition, page 3." },
    };
    const r = await exchange("create_record_pending_review", "POST", "/api/v1/records", { key: sandboxKey, body });
    expect(r.status).toBe(202);
    expect(r.body.verification_id).toMatch(RECORD_ID);
    expect(r.body).toMatchObject({
      object: "record", status: "pending_review", environment: "sandbox", verified: false, claim_type: "press_coverage",
      evidence_level: null, certificate_url: null, qr_url: null, signature_url: null, status_url: null,
      integrity: null, superseded_by: null, review: { evidence_level: "evidence_verified" },
      evidence: { source_name: "Financial Times", source_url: body.source_url, checked_at: checkedAt.replace("Z", ".000Z") },
      lifecycle: { status: "pending_review", issued_at: null, valid_from: null, expires_at: null },
    });
    expect(r.body.review.reason).toContain("reviewer");
    expect(r.body.evidence.note).toBeUndefined();
    expect((await call("GET", `/api/v1/records/${r.body.verification_id}/status`)).status).toBe(404);
  });

  it("create_record_live: a live key issues a live record (metered)", async () => {
    const r = await exchange("create_record_live", "POST", "/api/v1/records", {
      key: live.liveKey,
      body: { subject: "Globex GmbH", claim_type: "company_status", claim: "Globex GmbH is an active company registered in Germany." },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ environment: "live", status: "active", visibility: "private", verified: false, evidence_level: "participant_attested" });
    liveIssuedIn = r.body.created_at.slice(0, 7);
  });

  // ---- errors of POST /api/v1/records ------------------------------------------------------

  it("error_unknown_field: an unknown body field → 422 unknown_field", async () => {
    const r = await exchange("error_unknown_field", "POST", "/api/v1/records", {
      key: sandboxKey, body: { ...createBody, colour: "blue" },
    });
    expectError(r, 422, "invalid_request_error", "unknown_field", "colour");
  });

  it("error_idempotency_key_required: no Idempotency-Key → 400", async () => {
    const r = await exchange("error_idempotency_key_required", "POST", "/api/v1/records", { key: sandboxKey, body: createBody, idem: null });
    expectError(r, 400, "idempotency_error", "idempotency_key_required");
  });

  it("error_missing_api_key: no Authorization header → 401", async () => {
    const r = await exchange("error_missing_api_key", "POST", "/api/v1/records", { body: createBody });
    expectError(r, 401, "authentication_error", "missing_api_key");
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("error_plan_inactive: live key of an account without a plan → 402", async () => {
    const acct = await newLiveAccount("growth");
    secrets.add(acct.sandboxKey).add(acct.liveKey);
    await admin("plan", "set", "--account", acct.accountId, "--plan", "none");
    const r = await exchange("error_plan_inactive", "POST", "/api/v1/records", { key: acct.liveKey, body: createBody });
    expectError(r, 402, "payment_required", "plan_inactive");
    expect((await call("GET", "/api/v1/records", { key: acct.liveKey })).body.data).toEqual([]);
  });

  // ---- reading records -------------------------------------------------------------------

  it("get_record: GET /api/v1/records/:id returns the owner's view", async () => {
    const r = await exchange("get_record", "GET", `/api/v1/records/${created.verification_id}`, { key: sandboxKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(created);
  });

  it("error_record_not_found: another id → 404", async () => {
    const r = await exchange("error_record_not_found", "GET", "/api/v1/records/PRS-0000000000000000000Z", { key: sandboxKey });
    expectError(r, 404, "not_found", "record_not_found", "id");
  });

  it("list_records: newest first, cursor-paginated", async () => {
    const r = await exchange("list_records", "GET", "/api/v1/records?limit=1", { key: sandboxKey });
    expect(r.status).toBe(200);
    expect(r.body.object).toBe("list");
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ object: "record", claim_type: "press_coverage", status: "pending_review" });
    expect(r.body.has_more).toBe(true);
    const next = await call("GET", `/api/v1/records?limit=1&starting_after=${r.body.data[0].verification_id}`, { key: sandboxKey });
    expect(next.body.data.map((x: any) => x.verification_id)).toEqual([created.verification_id]);
    expect(next.body.has_more).toBe(false);
  });

  // ---- public: status and signature ------------------------------------------------------

  it("get_status: signed, public, cacheable at most 60 s; the signature verifies with jose + canonicalize", async () => {
    const r = await exchange("get_status", "GET", `/api/v1/records/${created.verification_id}/status`);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const cc = r.headers.get("cache-control")!;
    expect(cc).toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
    expect(Number(/s-maxage=(\d+)/.exec(cc)![1])).toBeLessThanOrEqual(60);
    expect(r.body).toMatchObject({
      verification_id: created.verification_id, status: "active", environment: "sandbox", verified: false,
      claim_type: "company_status", subject: created.subject, evidence_level: "participant_attested",
      issued_at: created.lifecycle.issued_at, expires_at: created.lifecycle.expires_at,
      status_changed_at: created.lifecycle.status_changed_at, certificate_url: created.certificate_url,
      signing_key_id: created.integrity.signing_key_id,
    });
    expect(r.body.as_of).toMatch(TIMESTAMP);
    expect(await statusSignatureValid(r.body)).toBe(true);
    expect(await statusSignatureValid({ ...r.body, status: "revoked" })).toBe(false);
  });

  it("get_signature: the stored record signature re-verified against the published key", async () => {
    const r = await exchange("get_signature", "GET", `/api/v1/records/${created.verification_id}/signature`);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    expect(r.body).toMatchObject({
      verification_id: created.verification_id, valid: true, algorithm: "Ed25519",
      signing_key_id: created.integrity.signing_key_id, payload_sha256: created.integrity.payload_sha256,
    });
    expect(r.body.signed_payload).toEqual({
      id: created.verification_id, environment: "sandbox", subject: created.subject, claim_type: "company_status",
      claim: created.claim, evidence_level: "participant_attested", evidence: {}, issued_at: created.lifecycle.issued_at,
      valid_from: created.lifecycle.valid_from, expires_at: created.lifecycle.expires_at, account: { name: "Acme Trading Ltd" },
      checks: [{ fact: "statement", by: "account", at: created.lifecycle.issued_at }], issuer: baseUrl(),
    });
    expect(createHash("sha256").update(canonicalize(r.body.signed_payload)!).digest("hex")).toBe(created.integrity.payload_sha256);
    // Not the service's `valid`: the record's signature checked here against the published key, and it binds the payload.
    expect(r.body.signature).toBe(created.integrity.signature);
    expect(await verifyWithJwks(r.body.signed_payload, created.integrity.signature, created.integrity.signing_key_id)).toBe(true);
    expect(await verifyWithJwks({ ...r.body.signed_payload, subject: "Someone Else Ltd" }, created.integrity.signature, created.integrity.signing_key_id)).toBe(false);
  });

  // ---- lifecycle -------------------------------------------------------------------------

  it("lifecycle_suspend: active → suspended", async () => {
    const r = await exchange("lifecycle_suspend", "POST", `/api/v1/records/${created.verification_id}/lifecycle`, {
      key: sandboxKey, body: { operation: "suspend", reason: "Registry filing overdue; under internal review." },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ verification_id: created.verification_id, status: "suspended", lifecycle: { status: "suspended" } });
    expect(r.body.lifecycle.history).toHaveLength(2);
    expect(r.body.lifecycle.history[1]).toMatchObject({ status: "suspended", reason: "Registry filing overdue; under internal review.", by: "owner" });
    expect((await call("GET", `/api/v1/records/${created.verification_id}/status`)).body.status).toBe("suspended");
  });

  it("lifecycle_reinstate: suspended → active", async () => {
    const r = await exchange("lifecycle_reinstate", "POST", `/api/v1/records/${created.verification_id}/lifecycle`, {
      key: sandboxKey, body: { operation: "reinstate", reason: "Filing received; review closed." },
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("active");
    expect(r.body.lifecycle.history.map((h: any) => h.status)).toEqual(["active", "suspended", "active"]);
    expect((await call("GET", `/api/v1/records/${created.verification_id}/status`)).body.status).toBe("active");
  });

  it("get_status_at: the signed status at an instant while the record was suspended", async () => {
    const history = (await call("GET", `/api/v1/records/${created.verification_id}`, { key: sandboxKey })).body.lifecycle.history;
    const [suspended, reinstated] = [history[1], history[2]];
    const at = new Date(Math.floor((Date.parse(suspended.at) + Date.parse(reinstated.at)) / 2)).toISOString();
    const r = await exchange("get_status_at", "GET", `/api/v1/records/${created.verification_id}/status?at=${at}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toMatch(/^public, max-age=\d+, s-maxage=\d+$/);
    expect(r.body).toMatchObject({
      verification_id: created.verification_id, status: "suspended", status_changed_at: suspended.at, at,
      issued_at: created.lifecycle.issued_at, expires_at: created.lifecycle.expires_at, signing_key_id: created.integrity.signing_key_id,
    });
    expect(Date.parse(r.body.as_of)).toBeGreaterThan(Date.parse(reinstated.at));
    expect(await statusSignatureValid(r.body)).toBe(true);
    expect(await statusSignatureValid({ ...r.body, at: reinstated.at })).toBe(false);
    expect((await call("GET", `/api/v1/records/${created.verification_id}/status`)).body.status).toBe("active");
  });

  it("lifecycle_supersede: active → superseded by a newer record", async () => {
    const successor = await call("POST", "/api/v1/records", {
      key: sandboxKey,
      body: { ...createBody, claim: "Acme Trading Ltd is an active company registered in England and Wales (confirmed 2026)." },
    });
    expect(successor.status).toBe(201);
    successorId = successor.body.verification_id;
    const r = await exchange("lifecycle_supersede", "POST", `/api/v1/records/${created.verification_id}/lifecycle`, {
      key: sandboxKey, body: { operation: "supersede", reason: "Replaced by the 2026 confirmation.", superseded_by: successorId },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "superseded", superseded_by: successorId });
    expect(r.body.lifecycle.history.map((h: any) => h.status)).toEqual(["active", "suspended", "active", "superseded"]);
  });

  it("error_invalid_transition: a superseded record cannot be reinstated → 409", async () => {
    const before = (await call("GET", `/api/v1/records/${created.verification_id}`, { key: sandboxKey })).body;
    const r = await exchange("error_invalid_transition", "POST", `/api/v1/records/${created.verification_id}/lifecycle`, {
      key: sandboxKey, body: { operation: "reinstate", reason: "Undo the replacement." },
    });
    expectError(r, 409, "conflict", "invalid_transition", "operation");
    expect((await call("GET", `/api/v1/records/${created.verification_id}`, { key: sandboxKey })).body).toEqual(before);
  });

  // ---- account ---------------------------------------------------------------------------

  it("update_account: the organisation name certificates show as the account that made the statement", async () => {
    const { sandboxKey: key, accountId } = await newAccount("doc-acct");
    const r = await exchange("update_account", "PATCH", "/api/v1/account", { key, body: { name: "Acme Trading Ltd" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      object: "account", id: accountId, name: "Acme Trading Ltd", name_verified: false, organisation: null, verified_domains: [], plan: "none", environment: "sandbox",
    });
  });

  it("usage: this month's live usage against the plan", async () => {
    const asked = usageMonth();
    const r = await exchange("usage", "GET", "/api/v1/usage", { key: live.liveKey });
    expect(r.status).toBe(200);
    expect([asked, usageMonth()]).toContain(r.body.period);
    // The record above counts in the month it was issued (a run may cross a month's end).
    expect(r.body).toEqual({
      object: "usage", period: r.body.period, plan: "growth",
      live_records: { used: r.body.period === liveIssuedIn ? 1 : 0, allowance: 25_000 }, reviewed_verifications: { used: 0, allowance: 500 },
    });
  });

  // ---- keys, health, OpenAPI -------------------------------------------------------------

  it("jwks: published Ed25519 keys", async () => {
    const r = await exchange("jwks", "GET", "/.well-known/jwks.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.body.keys.length).toBeGreaterThan(0);
    for (const k of r.body.keys) expect(k).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid: expect.any(String), use: "sig", alg: "EdDSA" });
    expect(r.body.keys.map((k: any) => k.kid)).toContain(created.integrity.signing_key_id);
  });

  it("webhook_public_keys: the same keys, as Standard Webhooks whpk_ keys", async () => {
    const r = await exchange("webhook_public_keys", "GET", "/api/v1/webhooks/public-keys");
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const jwks = (await call("GET", "/.well-known/jwks.json")).body.keys as { kid: string; x: string }[];
    expect(r.body.keys).toEqual(jwks.map((k) => ({ kid: k.kid, public_key: `whpk_${Buffer.from(k.x, "base64url").toString("base64")}` })));
  });

  it("health: readiness", async () => {
    const r = await exchange("health", "GET", "/api/health");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok", database: "ok" });
    expect(r.headers.get("request-id")).toMatch(/^req_/);
  });

  it("health_live: liveness", async () => {
    const r = await exchange("health_live", "GET", "/api/health/live");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok" });
  });

  it("openapi: the OpenAPI 3.1 document (abridged in the docs)", async () => {
    const r = await exchange<any>("openapi", "GET", "/api/v1/openapi.json", {
      omitKeys: (doc) => {
        const { openapi, info, servers, ...rest } = doc;
        return { shown: { openapi, info, servers }, omitted: Object.keys(rest) };
      },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.body.openapi).toBe("3.1.0");
    expect(r.body.servers).toEqual([{ url: baseUrl() }]);
    for (const p of ["/api/v1/records", "/api/v1/records/batch", "/api/v1/records/{id}", "/api/v1/records/{id}/status", "/api/v1/records/{id}/signature",
      "/api/v1/records/{id}/lifecycle", "/api/v1/usage", "/api/v1/openapi.json", "/.well-known/jwks.json", "/api/health", "/api/health/live",
      "/api/v1/domain-challenges", "/api/v1/wallet-challenges"]) {
      expect(Object.keys(r.body.paths)).toContain(p);
    }
  });
});

// ---- domain and wallet proofs: request a challenge → answer it → create the record -----------

const ECPair = ECPairFactory(ecc);
bitcoin.initEccLib(ecc); // for the taproot address of the unsupported-address example

/** What every issued proof record looks like, whatever its family. */
function expectProofRecord(rec: any, claimType: string, subject: string) {
  expect(rec.verification_id).toMatch(RECORD_ID);
  expect(rec).toMatchObject({
    object: "record", status: "active", environment: "sandbox", verified: false, claim_type: claimType, subject,
    evidence_level: "source_verified", review: null, integrity: { algorithm: "Ed25519", canonicalization: "RFC8785" },
    certificate_url: `${baseUrl()}/r/${rec.verification_id}`,
  });
  expect(rec.lifecycle.history).toEqual([{ status: "active", at: rec.created_at, reason: "Issued.", by: "owner" }]);
}

/** The wallet message names the service, the address, the network, the challenge and its validity. */
function expectWalletMessage(c: any, address: string, network: string) {
  const lines = c.message.split("\n");
  expect(lines[0]).toBe(`${new URL(baseUrl()).host} asks you to prove control of this ${network} address for Proof Records (PRS):`);
  expect(lines[1]).toBe(address);
  for (const line of [`URI: ${baseUrl()}`, `Network: ${network}`, `Challenge ID: ${c.id}`, `Issued At: ${c.created_at}`, `Expiration Time: ${c.expires_at}`]) {
    expect(lines).toContain(line);
  }
  expect(lines.find((l: string) => l.startsWith("Nonce: "))).toMatch(/^Nonce: [0-9a-f]{24}$/);
}

describe("documented examples: domain and wallet proofs (docs/api.md)", () => {
  let key = "";
  const claimBody = (claim_type: string, subject: string, claim: string, evidence: Record<string, unknown>) => ({
    subject, claim_type, claim, evidence,
  });
  async function walletChallenge(name: string, address: string, network: string) {
    const r = await exchange(name, "POST", "/api/v1/wallet-challenges", { key, body: { address, network } });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.body.id).toMatch(/^wch_[A-Za-z0-9]{20}$/);
    expect(r.body).toMatchObject({ object: "wallet_challenge", network, claim_type: "wallet_ownership" });
    expect(Date.parse(r.body.expires_at) - Date.parse(r.body.created_at)).toBe(3600_000);
    return r.body;
  }

  beforeAll(async () => {
    ({ sandboxKey: key } = await newAccount("docs-proofs"));
    secrets.add(key);
  });

  // ---- domain ------------------------------------------------------------------------------

  let domainChallenge: any;

  it("domain_challenge: the TXT record to publish, for the normalised domain", async () => {
    const r = await exchange("domain_challenge", "POST", "/api/v1/domain-challenges", { key, body: { domain: "Example.com" } });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
    const c = r.body;
    expect(c.id).toMatch(/^dch_[A-Za-z0-9]{20}$/);
    expect(c).toEqual({
      object: "domain_challenge", id: c.id, domain: "example.com", token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      txt_name: "_prs-challenge.example.com", txt_value: `prs-verification=${c.token}`,
      expires_at: expect.stringMatching(TIMESTAMP), created_at: expect.stringMatching(TIMESTAMP),
    });
    expect(Date.parse(c.expires_at) - Date.parse(c.created_at)).toBe(3600_000);
    domainChallenge = c;
  });

  it("error_dns_record_not_found: creating the record before the TXT record is published → 422, challenge still usable", async () => {
    const c = domainChallenge;
    setDns(c.txt_name, null);
    const r = await exchange("error_dns_record_not_found", "POST", "/api/v1/records", {
      key, body: claimBody("domain_ownership", "example.com", "The holder of this account controls the DNS of example.com.", { challenge_id: c.id }),
    });
    expectError(r, 422, "invalid_request_error", "dns_record_not_found", "evidence.challenge_id");
    expect(r.body.error.message).toContain(`${c.txt_name} = "${c.txt_value}"`);
    expect((await call("GET", "/api/v1/records?claim_type=domain_ownership", { key })).body.data).toEqual([]);
  });

  it("create_record_domain_ownership: TXT record published → 201 source_verified, re-checked periodically", async () => {
    const c = domainChallenge;
    // What the domain's owner does at their DNS provider; here the test's DNS server serves it.
    setDns(c.txt_name, ["v=spf1 -all", c.txt_value]);
    const body = claimBody("domain_ownership", "example.com", "The holder of this account controls the DNS of example.com.", { challenge_id: c.id });
    const r = await exchange("create_record_domain_ownership", "POST", "/api/v1/records", { key, body });
    expect(r.status, r.text).toBe(201);
    expectProofRecord(r.body, "domain_ownership", "example.com");
    expect(r.body.evidence).toEqual({
      challenge_id: c.id, domain: "example.com", txt_name: c.txt_name, txt_value: c.txt_value, checked_at: r.body.created_at,
    });
    expect(Date.parse(r.body.lifecycle.recheck_at)).toBeGreaterThan(Date.parse(r.body.created_at));
    // The evidence is signed, and the challenge is used up.
    const sig = await call("GET", `/api/v1/records/${r.body.verification_id}/signature`);
    expect(sig.body).toMatchObject({ valid: true, signed_payload: { claim_type: "domain_ownership", evidence: r.body.evidence } });
    expect(await verifyWithJwks(sig.body.signed_payload, r.body.integrity.signature, r.body.integrity.signing_key_id)).toBe(true);
    expect(canonicalSha256(sig.body.signed_payload)).toBe(r.body.integrity.payload_sha256);
    const again = await call("POST", "/api/v1/records", { key, body });
    expect(again.body.error).toMatchObject({ code: "challenge_used", param: "evidence.challenge_id" });
  });

  it("error_invalid_domain: a URL instead of a bare domain → 422", async () => {
    const r = await exchange("error_invalid_domain", "POST", "/api/v1/domain-challenges", { key, body: { domain: "https://example.com/about" } });
    expectError(r, 422, "invalid_request_error", "invalid_domain", "domain");
  });

  // ---- EVM ---------------------------------------------------------------------------------

  it("wallet_evm: viem account → challenge (ethereum) → signMessage → create_record_wallet_evm 201", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const c = await walletChallenge("wallet_challenge_evm", account.address.toLowerCase(), "ethereum");
    expect(c.address).toBe(account.address); // answered EIP-55 checksummed
    expectWalletMessage(c, account.address, "ethereum");
    const signature = await account.signMessage({ message: c.message });
    expect(await verifyMessage({ address: account.address, message: c.message, signature })).toBe(true);
    const r = await exchange("create_record_wallet_evm", "POST", "/api/v1/records", {
      key, body: claimBody("wallet_ownership", account.address, `The holder of this account controls ${account.address} on Ethereum.`, { challenge_id: c.id, signature }),
    });
    expect(r.status, r.text).toBe(201);
    expectProofRecord(r.body, "wallet_ownership", account.address);
    expect(r.body.evidence).toEqual({
      challenge_id: c.id, address: account.address, network: "ethereum", message: c.message, signature,
      signature_scheme: "eip191", checked_at: r.body.created_at,
    });
    expect(r.body.lifecycle.recheck_at).toBeNull();
  });

  it("create_record_dex_control: a domainless wallet owner, its wallet signed → 202 for a reviewer", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: account.address, network: "ethereum", claim_type: "dex_control" } })).body;
    const signature = await account.signMessage({ message: c.message });
    const r = await exchange("create_record_dex_control", "POST", "/api/v1/records", {
      key,
      body: {
        ...claimBody("dex_control", account.address, `The holder of this account controls exchange wallet ${account.address} and @acmetrade.`, {
          challenge_id: c.id, signature, social_handle: "@acmetrade", mode: "domainless", social_post_url: "https://social.example/acmetrade/status/1",
        }),
        subtype: "wallet_owner",
      },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ status: "pending_review", evidence_level: null, review: { evidence_level: "evidence_verified" } });
    expect(r.body.evidence).toMatchObject({ subtype: "wallet_owner", mode: "domainless", address: account.address, signature_checked: true, token: /Nonce: (\S+)/.exec(c.message)![1] });
  });

  it("create_record_dex_control_builder: a builder with its domain record → 202; the named wallet is kept private", async () => {
    const dc = (await call("POST", "/api/v1/domain-challenges", { key, body: { domain: "acme-trade.example.com" } })).body;
    setDns(dc.txt_name, [dc.txt_value]);
    const dom = await call("POST", "/api/v1/records", { key, body: claimBody("domain_ownership", "acme-trade.example.com", "Controls acme-trade.example.com.", { challenge_id: dc.id }) });
    expect(dom.status, dom.text).toBe(201);
    const builder = privateKeyToAccount(generatePrivateKey());
    const user = "0x1111111111111111111111111111111111111111";
    const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: builder.address, network: "ethereum", claim_type: "dex_control" } })).body;
    const r = await exchange("create_record_dex_control_builder", "POST", "/api/v1/records", {
      key,
      body: {
        ...claimBody("dex_control", builder.address, `The holder of this account runs builder ${builder.address} at acme-trade.example.com.`, {
          challenge_id: c.id, signature: await builder.signMessage({ message: c.message }), social_handle: "@acmetrade",
          domain: "acme-trade.example.com", domain_record: dom.body.verification_id, user_address: user,
        }),
        subtype: "builder",
      },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.body.evidence).toMatchObject({ subtype: "builder", domain: "acme-trade.example.com", domain_record: dom.body.verification_id });
    expect(r.text).not.toContain(user.slice(2));
  });

  it("create_record_exchange_trade_test: one testnet trade, reconciled, its key never kept → 201", async () => {
    const apiKey = "PRSXSECRETdemoKEY";
    const apiSecret = "PRSXSECRET-demo-secret";
    const t = Date.parse("2026-11-20T14:03:07Z");
    writeExchange(inject("exchange").testnetFile, {
      keys: { [apiKey]: { secret: apiSecret, readOnly: 1, userID: 1448939, isMaster: true, parentUid: "0" } },
      closedPnl: { [apiKey]: [{
        symbol: "BTCUSDT", orderId: "5a373bfe-188d-4913-9c81-d57ab5be8068", side: "Sell", qty: "0.5", orderPrice: "0", orderType: "Market",
        execType: "Trade", closedSize: "0.5", cumEntryValue: "30000", avgEntryPrice: "60000", cumExitValue: "30500", avgExitPrice: "61000",
        closedPnl: "481.5", openFee: "9", closeFee: "9.5", fillCount: "1", leverage: "5", createdTime: String(t), updatedTime: String(t),
      }] },
      executions: { [apiKey]: [{ symbol: "BTCUSDT", orderId: "5a373bfe-188d-4913-9c81-d57ab5be8068", side: "Sell", execPrice: "61000", execQty: "0.5", execTime: String(t - 400), execType: "Trade", isMaker: false, seq: 1 }] },
    });
    const { sandboxKey } = await newAccount("xdoc");
    const r = await exchange("create_record_exchange_trade_test", "POST", "/api/v1/records", {
      key: sandboxKey,
      body: {
        subject: "BTCUSDT long, closed 2026-11-20", claim_type: "exchange_verified_trade_test", claim: "Acme Trading Ltd closed a BTCUSDT long at a profit on the testnet.",
        evidence: {
          environment: "testnet", api_key: apiKey, api_secret: apiSecret, category: "linear", order_id: "5a373bfe-188d-4913-9c81-d57ab5be8068",
          start_time: "2026-11-19T00:00:00Z", end_time: "2026-11-21T00:00:00Z",
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.evidence).toMatchObject({ symbol: "BTCUSDT", position: "long", closed_pnl: "481.5", account_type: "master" });
    expect(r.text).not.toContain(apiSecret);
    expect(r.text).not.toContain(apiKey);
  });

  it("error_signature_mismatch: a signature by another key → 422, nothing issued", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: account.address, network: "base" } })).body;
    const signature = await other.signMessage({ message: c.message });
    const before = (await call("GET", "/api/v1/records?claim_type=wallet_ownership", { key })).body.data.length;
    const r = await exchange("error_signature_mismatch", "POST", "/api/v1/records", {
      key, body: claimBody("wallet_ownership", account.address, `The holder of this account controls ${account.address} on Base.`, { challenge_id: c.id, signature }),
    });
    expectError(r, 422, "invalid_request_error", "signature_mismatch", "evidence.signature");
    expect((await call("GET", "/api/v1/records?claim_type=wallet_ownership", { key })).body.data).toHaveLength(before);
    // A failed attempt does not use the challenge up: the right signature still issues.
    const good = await call("POST", "/api/v1/records", {
      key, body: claimBody("wallet_ownership", account.address, "x", { challenge_id: c.id, signature: await account.signMessage({ message: c.message }) }),
    });
    expect(good.status, good.text).toBe(201);
  });

  // ---- bitcoin -----------------------------------------------------------------------------

  it("wallet_bitcoin: bc1q address, BIP-322 simple signature (bip322-js) → create_record_wallet_bitcoin 201", async () => {
    const keyPair = ECPair.makeRandom();
    const address = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(keyPair.publicKey) }).address!;
    expect(address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    const c = await walletChallenge("wallet_challenge_bitcoin", address, "bitcoin");
    expect(c.address).toBe(address);
    expectWalletMessage(c, address, "bitcoin");
    const signature = Signer.sign(keyPair.toWIF(), address, c.message).toString();
    expect(Buffer.from(signature, "base64").length).toBeGreaterThan(65); // a witness, not a 65-byte BIP-137 signature
    const r = await exchange("create_record_wallet_bitcoin", "POST", "/api/v1/records", {
      key, body: claimBody("wallet_ownership", address, `The holder of this account controls the bitcoin address ${address}.`, { challenge_id: c.id, signature }),
    });
    expect(r.status, r.text).toBe(201);
    expectProofRecord(r.body, "wallet_ownership", address);
    expect(r.body.evidence).toMatchObject({ address, network: "bitcoin", message: c.message, signature, signature_scheme: "bip322-simple" });
  });

  it("wallet_bitcoin_legacy: 1… address, BIP-137 signature (bitcoinjs-message) → create_record_wallet_bitcoin_legacy 201", async () => {
    const keyPair = ECPair.makeRandom();
    const address = bitcoin.payments.p2pkh({ pubkey: Buffer.from(keyPair.publicKey) }).address!;
    expect(address).toMatch(/^1/);
    const c = await walletChallenge("wallet_challenge_bitcoin_legacy", address, "bitcoin");
    expectWalletMessage(c, address, "bitcoin");
    const signature = bitcoinMessage.sign(c.message, Buffer.from(keyPair.privateKey!), true).toString("base64");
    expect(Buffer.from(signature, "base64")).toHaveLength(65);
    expect(bitcoinMessage.verify(c.message, address, signature)).toBe(true);
    const r = await exchange("create_record_wallet_bitcoin_legacy", "POST", "/api/v1/records", {
      key, body: claimBody("wallet_ownership", address, `The holder of this account controls the bitcoin address ${address}.`, { challenge_id: c.id, signature }),
    });
    expect(r.status, r.text).toBe(201);
    expectProofRecord(r.body, "wallet_ownership", address);
    expect(r.body.evidence).toMatchObject({ address, network: "bitcoin", signature, signature_scheme: "bip137" });
  });

  it("error_unsupported_address_type: a taproot (bc1p…) address → 422", async () => {
    const keyPair = ECPair.makeRandom();
    const address = bitcoin.payments.p2tr({ internalPubkey: Buffer.from(keyPair.publicKey).subarray(1, 33) }).address!;
    expect(address).toMatch(/^bc1p/);
    const r = await exchange("error_unsupported_address_type", "POST", "/api/v1/wallet-challenges", { key, body: { address, network: "bitcoin" } });
    expectError(r, 422, "invalid_request_error", "unsupported_address_type", "address");
    expect(r.body.error.message).toMatch(/Taproot/);
  });

  // ---- solana ------------------------------------------------------------------------------

  it("wallet_solana: ed25519 key (@noble/curves) → base58 address → signMessage → create_record_wallet_solana 201", async () => {
    const secretKey = ed25519.utils.randomSecretKey();
    const address = bs58.encode(ed25519.getPublicKey(secretKey));
    const c = await walletChallenge("wallet_challenge_solana", address, "solana");
    expect(c.address).toBe(address);
    expectWalletMessage(c, address, "solana");
    const messageBytes = new TextEncoder().encode(c.message);
    const signature = bs58.encode(ed25519.sign(messageBytes, secretKey));
    expect(ed25519.verify(bs58.decode(signature), messageBytes, bs58.decode(address))).toBe(true);
    const r = await exchange("create_record_wallet_solana", "POST", "/api/v1/records", {
      key, body: claimBody("wallet_ownership", address, `The holder of this account controls the Solana address ${address}.`, { challenge_id: c.id, signature }),
    });
    expect(r.status, r.text).toBe(201);
    expectProofRecord(r.body, "wallet_ownership", address);
    expect(r.body.evidence).toMatchObject({ address, network: "solana", message: c.message, signature, signature_scheme: "ed25519" });
  });
});

// ---- webhooks ------------------------------------------------------------------------------

describe("documented examples: webhooks (docs/api.md)", () => {
  let key = "";
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  const SHOWN_URL = "https://hooks.customer.example/prs";
  /** The receiver's loopback URL reads as the customer's endpoint in the docs; the secret is elided. */
  const shown = (v: unknown) =>
    JSON.parse(JSON.stringify(v).split(rxUrl).join(SHOWN_URL).replace(/whsec_[A-Za-z0-9+/=]+/g, "whsec_…"));
  let rxUrl = "";

  beforeAll(async () => {
    ({ sandboxKey: key } = await newAccount("docs-webhooks"));
    secrets.add(key);
    rx = await startReceiver();
  });
  afterAll(async () => rx.close());

  it("create_webhook → record.issued delivered, signed (standardwebhooks verifies) → deliveries → test → delete", async () => {
    const ep = rx.endpoint("docs");
    rxUrl = ep.url;
    const created = await call("POST", "/api/v1/webhooks", { key, body: { url: ep.url, events: ["record.issued", "record.status_changed"], description: "Order system" } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    ep.setSecret(created.body.secret);
    recordShown("create_webhook", "POST", "/api/v1/webhooks", { url: SHOWN_URL, events: ["record.issued", "record.status_changed"], description: "Order system" }, created);

    const list = await call("GET", "/api/v1/webhooks", { key });
    expect(list.body.data[0].secret).toBeUndefined();
    recordShown("list_webhooks", "GET", "/api/v1/webhooks", undefined, list);

    const rec = await issue(key, { subject: "Webhook Demo Ltd", claim: "Webhook Demo Ltd is an active company." });
    await waitFor(() => ep.received().length === 1);
    const got = ep.received()[0]!;
    expect(ep.rejected()).toBe(0); // the delivery verified (an unverified one is refused, not recorded)
    expect(got.body).toMatchObject({ type: "record.issued", data: { record: { verification_id: rec.verification_id } } });
    const deliveryHeaders = Object.fromEntries(
      ["content-type", "user-agent", "webhook-id", "webhook-timestamp", "webhook-signature", "webhook-key-id"].map((h) => [h, String(got.headers[h])]),
    );
    // Both signatures: v1 (verified above) and v1a by the published key the header names (as the docs show).
    expect(deliveryHeaders["webhook-signature"]).toMatch(/^v1,\S+ v1a,\S+$/);
    expect(deliveryHeaders["webhook-key-id"]).toBe(rec.integrity.signing_key_id);
    // v1a checked here with the published key alone (Standard Webhooks content: id.timestamp.body, as received).
    const v1a = /(?:^| )v1a,(\S+)/.exec(deliveryHeaders["webhook-signature"]!)![1]!;
    const content = (raw: string) => new TextEncoder().encode(`${deliveryHeaders["webhook-id"]}.${deliveryHeaders["webhook-timestamp"]}.${raw}`);
    const hookKey = (await createLocalJWKSet((await call("GET", "/.well-known/jwks.json")).body)({ alg: "EdDSA", kid: deliveryHeaders["webhook-key-id"] })) as CryptoKey;
    expect(await crypto.subtle.verify("Ed25519", hookKey, Buffer.from(v1a, "base64"), content(got.raw))).toBe(true);
    expect(await crypto.subtle.verify("Ed25519", hookKey, Buffer.from(v1a, "base64"), content(got.raw.replace(rec.verification_id, "PRS-00000000000000000000")))).toBe(false);
    // The record the delivery carries is signed too.
    expect(await expectSignaturesVerify(got.body.data.record, "webhook_delivery")).toBe(1);
    record("webhook_delivery", shown({
      request: { method: "POST", path: SHOWN_URL, headers: deliveryHeaders, body: got.body },
      response: { status: 204, headers: {}, body: "" },
    }));

    const deliveries = await until("the delivery recorded as succeeded", async () => {
      const r = await call("GET", `/api/v1/webhooks/${created.body.id}/deliveries`, { key });
      return r.body.data[0]?.status === "succeeded" ? r : undefined;
    });
    expect(deliveries.body.data[0].attempts[0]).toMatchObject({ status_code: 204, error: null });
    recordShown("webhook_deliveries", "GET", `/api/v1/webhooks/${created.body.id}/deliveries`, undefined, deliveries);

    const test = await call("POST", `/api/v1/webhooks/${created.body.id}/test`, { key });
    expect(test.status).toBe(202);
    recordShown("webhook_test", "POST", `/api/v1/webhooks/${created.body.id}/test`, undefined, test);
    await waitFor(() => ep.received().some((r) => r.type === "webhook.test"));

    const bad = await call("POST", "/api/v1/webhooks", { key, body: { url: "ftp://files.example/hook" } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("invalid_webhook_url");
    recordShown("error_invalid_webhook_url", "POST", "/api/v1/webhooks", { url: "ftp://files.example/hook" }, bad);

    const del = await call("DELETE", `/api/v1/webhooks/${created.body.id}`, { key });
    expect(del.body).toEqual({ object: "webhook", id: created.body.id, deleted: true });
    recordShown("delete_webhook", "DELETE", `/api/v1/webhooks/${created.body.id}`, undefined, del);
  });

  function recordShown(name: string, method: string, p: string, body: unknown, res: Res) {
    const headers: Record<string, string> = { Authorization: "Bearer prs_sandbox_…", ...(body !== undefined && { "Content-Type": "application/json" }) };
    const resHeaders: Record<string, string> = {};
    for (const h of SHOWN_RESPONSE_HEADERS) {
      const v = res.headers.get(h);
      if (v !== null) resHeaders[h] = v;
    }
    record(name, shown({
      request: { method, path: p, headers, ...(body !== undefined && { body }) },
      response: { status: res.status, headers: resHeaders, body: res.body },
    }));
  }
});

// ---- POST /api/v1/records/batch ---------------------------------------------------------------

describe("documented examples: batches (docs/api.md)", () => {
  let key = "";
  const batchKey = randomUUID();
  let first: any;
  let body: { records: Record<string, unknown>[] };

  beforeAll(async () => {
    ({ sandboxKey: key } = await newAccount("docs-batch"));
    secrets.add(key);
    const challenge = await call("POST", "/api/v1/domain-challenges", { key, body: { domain: "acme-trading.example.net" } });
    expect(challenge.status, challenge.text).toBe(201);
    const c = challenge.body;
    setDns(c.txt_name, null);
    body = {
      records: [
        companyStatus({ subject: "Acme Trading Ltd", claim: "Acme Trading Ltd is an active company." }),
        companyStatus({ subject: "Acme Holdings Ltd", claim: "Acme Holdings Ltd is an active company." }),
        {
          subject: "Acme Trading Ltd", claim_type: "press_coverage", claim: "Acme Trading Ltd was featured in the Financial Times.",
          source_name: "Financial Times", source_url: "https://www.ft.com/content/acme-trading", checked_at: hoursAgo(30),
        },
        // The TXT record is not published: this row fails, the others still issue.
        { subject: c.domain, claim_type: "domain_ownership", claim: `Acme Trading Ltd controls the DNS of ${c.domain}.`, evidence: { challenge_id: c.id } },
      ],
    };
  });

  it("create_batch: 200 with one result per row; a row whose check fails is failed, the others issue", async () => {
    const r = await exchange("create_batch", "POST", "/api/v1/records/batch", { key, body, idem: batchKey });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    expect(r.body).toMatchObject({ object: "batch", totals: { issued: 2, existing: 0, pending_review: 1, failed: 1 } });
    expect(r.body.batch_id).toMatch(/^bat_[0-9a-z]{20}$/);
    expect(r.body.results.map((x: any) => x.outcome)).toEqual(["issued", "issued", "pending_review", "failed"]);
    for (const x of r.body.results.slice(0, 2)) {
      expect(x).toEqual({ index: expect.any(Number), outcome: "issued", verification_id: expect.stringMatching(RECORD_ID), status: "active",
        certificate_url: `${baseUrl()}/r/${x.verification_id}` });
    }
    expect(r.body.results[2]).toMatchObject({ status: "pending_review", certificate_url: null });
    expect(r.body.results[3].error).toMatchObject({ code: "dns_record_not_found", param: "records[3].evidence.challenge_id" });
    first = r.body;
  });

  it("create_batch_replay: the same key and body → the same batch, every created row existing", async () => {
    const r = await exchange("create_batch_replay", "POST", "/api/v1/records/batch", { key, body, idem: batchKey });
    expect(r.status).toBe(200);
    expect(r.headers.get("idempotent-replayed")).toBe("true");
    expect(r.body.batch_id).toBe(first.batch_id);
    expect(r.body.totals).toEqual({ issued: 0, existing: 3, pending_review: 0, failed: 1 });
    expect(r.body.results.map((x: any) => x.verification_id)).toEqual(first.results.map((x: any) => x.verification_id));
  });

  it("error_invalid_batch: invalid rows → 422 with error.rows, nothing issued", async () => {
    const records = [
      companyStatus({ subject: "Acme Trading Ltd" }),
      companyStatus({ subject: "Acme Holdings Ltd", claim: "Acme Holdings Ltd is an active company.", colour: "blue" }),
      { subject: "Acme Trading Ltd", claim_type: "press_coverage", claim: "Featured in the Financial Times." },
    ];
    const r = await exchange("error_invalid_batch", "POST", "/api/v1/records/batch", { key, body: { records } });
    expectError(r, 422, "invalid_request_error", "invalid_batch");
    expect(r.body.error.rows).toEqual([
      { index: 1, errors: [{ code: "unknown_field", param: "records[1].colour", message: expect.any(String) }] },
      { index: 2, errors: [{ code: "missing_evidence", param: "records[2].source_name", message: expect.any(String) }] },
    ]);
    const list = await call("GET", "/api/v1/records?limit=100", { key });
    expect(list.body.data).toHaveLength(3); // the three of create_batch, nothing more
  });
});

// ---- mandate keys --------------------------------------------------------------------------

describe("documented examples: mandate keys (docs/api.md)", () => {
  let key = "";
  let accountId = "";
  let other = "";
  // The principal's key pair, made where the principal keeps it (here: node's OpenSSL). Only x is sent.
  const { privateKey } = generateKeyPairSync("ed25519");
  const x = (privateKey.export({ format: "jwk" }) as { x: string }).x;
  const keyId = `acme-treasury-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    ({ sandboxKey: key, accountId } = await newAccount("docs-mandates"));
    ({ sandboxKey: other } = await newAccount("docs-mandates-other"));
    secrets.add(key).add(other);
  });

  it("create_mandate_key: 201, the key belongs to the API key's account and environment", async () => {
    const r = await exchange("create_mandate_key", "POST", "/api/v1/mandate-keys", { key, body: { key_id: keyId, public_key: x } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toEqual({
      object: "mandate_key", key_id: keyId, algorithm: "Ed25519", public_key: x, environment: "sandbox",
      status: "active", created_at: expect.stringMatching(TIMESTAMP), revoked_at: null,
    });
  });

  it("list_mandate_keys: the account's keys in the key's environment", async () => {
    const r = await exchange("list_mandate_keys", "GET", "/api/v1/mandate-keys", { key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: "list", has_more: false, data: [{ key_id: keyId, status: "active" }] });
  });

  it("get_mandate_key: public read-back of the account's key, its owner named, with a JWK that verifies the principal's signature", async () => {
    const r = await exchange("get_mandate_key", "GET", `/keys/${accountId}/${keyId}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.body).toMatchObject({
      key_id: keyId, public_key: x, status: "active", jwk: { kty: "OKP", crv: "Ed25519", x, kid: keyId },
      account_id: accountId, account: { name_verified: false, organisation: null },
    });
    const mandate = new TextEncoder().encode(canonicalize({ account_id: accountId, agent_id: "agent-7", act: "pay_invoice" })!);
    const signature = nodeSign(null, mandate, privateKey);
    const jwk = (await importJWK(r.body.jwk, "EdDSA")) as CryptoKey;
    expect(await crypto.subtle.verify("Ed25519", jwk, signature, mandate)).toBe(true);
  });

  it("create_record_agent: an agent's mandate, signed with the principal's mandate key → 201 source_verified", async () => {
    const mandate = {
      agent_id: "invoice-agent-7", act: "pay_invoices", scope: { asset: "USDC", max_amount: "250.00", network: "base" },
      session_id: "sess-2026-11-23", valid_until: new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z"),
      mandate_hash: `sha256:${createHash("sha256").update("Pay approved invoices from the Acme payables queue.").digest("hex")}`,
    };
    // Signed where the principal keeps its key (node:crypto here), over the RFC 8785 JSON with the account id.
    const mandate_signature = nodeSign(null, Buffer.from(canonicalize({ account_id: accountId, ...mandate })!), privateKey).toString("base64url");
    const body = {
      subject: "invoice-agent-7", claim_type: "agent_authorization", claim: "invoice-agent-7 may pay approved invoices for Acme Trading Ltd.",
      principal: "Acme Trading Ltd", ...mandate, mandate_signature, principal_key_id: keyId,
    };
    const r = await exchange("create_record_agent", "POST", "/api/v1/records", { key, body });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ claim_type: "agent_authorization", evidence_level: "source_verified", status: "active" });
    expect(r.body.lifecycle.expires_at).toBe(new Date(mandate.valid_until).toISOString());
    expect(r.body.agent).toEqual({
      principal: "Acme Trading Ltd", ...mandate, key: { key_id: keyId, status: "active", environment: "sandbox", url: `${baseUrl()}/keys/${accountId}/${keyId}` }, principal_standing: "unlinked", principal_record: null,
      wallets: [], payments: { count: 0, totals: [] },
    });
  });

  it("error_mandate_key_exists: a key_id this account already holds → 409 (another account may hold the same id)", async () => {
    const pk = (generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }) as { x: string }).x;
    const r = await exchange("error_mandate_key_exists", "POST", "/api/v1/mandate-keys", { key, body: { key_id: keyId, public_key: pk } });
    expectError(r, 409, "conflict", "mandate_key_exists", "key_id");
    expect((await call("POST", "/api/v1/mandate-keys", { key: other, body: { key_id: keyId, public_key: pk } })).status).toBe(201);
  });

  it("error_invalid_public_key: bytes that are no Ed25519 public key → 422", async () => {
    const r = await exchange("error_invalid_public_key", "POST", "/api/v1/mandate-keys", {
      key, body: { key_id: "acme-ops-1", public_key: Buffer.from(x, "base64url").subarray(0, 31).toString("base64url") },
    });
    expectError(r, 422, "invalid_request_error", "invalid_public_key", "public_key");
  });

  it("error_private_key_not_accepted: private key material is refused and not stored", async () => {
    // Shown with a throwaway key's 64-byte secret (seed ‖ public key), the form many libraries hand out.
    const throwaway = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }) as { x: string; d: string };
    const secretKey = Buffer.concat([Buffer.from(throwaway.d, "base64url"), Buffer.from(throwaway.x, "base64url")]).toString("base64url");
    const r = await exchange("error_private_key_not_accepted", "POST", "/api/v1/mandate-keys", {
      key, body: { key_id: "acme-ops-2", public_key: secretKey },
    });
    expectError(r, 422, "invalid_request_error", "private_key_not_accepted", "public_key");
    expect(r.text).not.toContain(throwaway.d);
    expect((await call("GET", `/keys/${accountId}/acme-ops-2`)).status).toBe(404);
  });

  it("revoke_mandate_key: 200, status revoked; still published for old mandates", async () => {
    const r = await exchange("revoke_mandate_key", "DELETE", `/api/v1/mandate-keys/${keyId}`, { key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ key_id: keyId, status: "revoked", revoked_at: expect.stringMatching(TIMESTAMP) });
    expect((await call("GET", `/keys/${accountId}/${keyId}`)).body.status).toBe("revoked");
  });
});

describe("documented examples: company identity and EVM transactions (docs/api.md)", () => {
  let key: string;
  beforeAll(async () => {
    key = (await newAccount("ex-connectors")).sandboxKey;
  });

  it("company_identity_create: the LEI register confirms the legal name → 201 source_verified", async () => {
    const r = await exchange("company_identity_create", "POST", "/api/v1/records", {
      key, body: { subject: "Proof Records Test Company Ltd", claim_type: "company_identity", claim: "Proof Records Test Company Ltd holds an active LEI.", evidence: { lei: LEI.active } },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ evidence_level: "source_verified", evidence: { lei: LEI.active, registration_status: "ISSUED", entity_status: "ACTIVE" } });
  });

  it("error_subject_mismatch_lei: another name than the register's → 422 naming it", async () => {
    const r = await exchange("error_subject_mismatch_lei", "POST", "/api/v1/records", {
      key, body: { subject: "Proof Records Test Co", claim_type: "company_identity", claim: "Proof Records Test Co holds an active LEI.", evidence: { lei: LEI.active } },
    });
    expectError(r, 422, "invalid_request_error", "subject_mismatch", "subject");
    expect(r.body.error.message).toContain("Proof Records Test Company Ltd");
  });

  it("evm_transaction_create and error_transaction_not_confirmed: a transfer on Base, first too fresh, then deep enough", async () => {
    const { url, chainId } = inject("evmChain");
    const chain = chainClients(url, chainId);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await chain.walletClient.sendTransaction({ to, value: 500_000_000_000_000_000n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const body = {
      subject: "Payment to Globex", claim_type: "evm_transaction", claim: "Acme paid Globex 0.5 ETH on Base.",
      evidence: { network: "base", tx_hash: hash, expected_to: to },
    };
    const early = await exchange("error_transaction_not_confirmed", "POST", "/api/v1/records", { key, body });
    expectError(early, 422, "invalid_request_error", "transaction_not_confirmed", "evidence.tx_hash");
    await chain.publicClient.request({ method: "hardhat_mine" as never, params: ["0x1"] as never });
    const r = await exchange("evm_transaction_create", "POST", "/api/v1/records", { key, body });
    expect(r.status, r.text).toBe(201);
    expect(r.body.evidence).toMatchObject({ network: "base", chain_id: 8453, tx_hash: hash, to, value: "500000000000000000", explorer_url: `https://basescan.org/tx/${hash}` });
  });

  it("create_record_agent_payment: a payment an agent made, with the agent's status at the block's time", async () => {
    const { url, chainId } = inject("evmChain");
    const chain = chainClients(url, chainId);
    const agent = await call("POST", "/api/v1/records", {
      key, body: {
        subject: "invoice-agent-7", claim_type: "agent_authorization", claim: "invoice-agent-7 may pay approved invoices for Acme Trading Ltd.",
        principal: "Acme Trading Ltd", agent_id: "invoice-agent-7", act: "pay_invoices", scope: { asset: "ETH", max_amount: "1.5", network: "base" },
      },
    });
    expect(agent.status, agent.text).toBe(201);
    // The block is stamped after the agent's issue: hardhat's clock may lag the server's by up to a second.
    const latest = Number((await chain.publicClient.getBlock({ blockTag: "latest" })).timestamp);
    const second = Math.max(Math.floor(Date.parse(agent.body.lifecycle.history[0].at) / 1000), latest) + 1;
    await chain.publicClient.request({ method: "evm_setNextBlockTimestamp" as never, params: [second] as never });
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await chain.walletClient.sendTransaction({ to, value: 250_000_000_000_000_000n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await chain.publicClient.request({ method: "hardhat_mine" as never, params: ["0x1"] as never });
    // time under test: the payment is recorded after its block's timestamp (`second`), as in life — the agent's status is read as of that instant.
    await untilPast(new Date(second * 1000).toISOString(), 100);
    const r = await exchange("create_record_agent_payment", "POST", "/api/v1/records", {
      key, body: {
        subject: "Invoice 2026-114", claim_type: "evm_transaction", claim: "invoice-agent-7 paid invoice 2026-114 for Acme Trading Ltd.",
        evidence: { network: "base", tx_hash: hash, expected_to: to, agent_record: agent.body.verification_id, act: "pay_invoices" },
      },
    });
    expect(r.status, r.text).toBe(201);
    const link = { agent_record: agent.body.verification_id, agent_id: "invoice-agent-7", agent_status_at_payment: "active", act_match: true };
    expect(r.body).toMatchObject({ agent_link: link, evidence: { tx_hash: hash, value: "250000000000000000", act: "pay_invoices", agent_link: link } });
  });
});

describe("documented examples: the public lookup (docs/api.md)", () => {
  let live: Awaited<ReturnType<typeof newLiveAccount>>;
  let proved: any;
  const domain = "acme-trading.example.com";

  /** Independent check of a lookup answer: drop `signature`, canonicalize, Ed25519 with the JWKS key. */
  async function lookupSignatureValid(answer: Record<string, unknown>): Promise<boolean> {
    const { signature, ...rest } = answer;
    const jwks = createLocalJWKSet((await call("GET", "/.well-known/jwks.json")).body);
    const key = (await jwks({ alg: "EdDSA", kid: String(rest.signing_key_id) })) as CryptoKey;
    return crypto.subtle.verify("Ed25519", key, Buffer.from(String(signature), "base64url"), new TextEncoder().encode(canonicalize(rest)!));
  }

  beforeAll(async () => {
    live = await newLiveAccount("growth");
    secrets.add(live.sandboxKey).add(live.liveKey);
    // A verified organisation (a reviewer's decision, recorded here by staff) and its live, public domain record: what the lookup finds.
    await admin("organisation", "verify", "--account", live.accountId, "--legal-name", "Acme Trading Ltd", "--jurisdiction", "GB", "--domains", domain);
    const c = await call("POST", "/api/v1/domain-challenges", { key: live.liveKey, body: { domain } });
    setDns(c.body.txt_name, [c.body.txt_value]);
    const r = await call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: { subject: domain, claim_type: "domain_ownership", claim: `Acme Trading Ltd controls the DNS of ${domain}.`, evidence: { challenge_id: c.body.id }, visibility: "public" },
    });
    expect(r.status, r.text).toBe(201);
    proved = r.body;
  });

  it("lookup_verified: a website in any spelling finds the live, public record; the answer is signed", async () => {
    const r = await exchange("lookup_verified", "GET", "/api/v1/lookup?q=WWW.Acme-Trading.example.com");
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("ratelimit-limit")).toBe("30");
    expect(r.body).toEqual({
      query: "WWW.Acme-Trading.example.com", normalized: domain, type: "website", result: "verified",
      matches: [{
        verification_id: proved.verification_id, claim_type: "domain_ownership", subject: domain, status: "active",
        evidence_level: "source_verified", matched_field: "subject", certificate_url: proved.certificate_url,
        account: {
          name: "Acme Trading Ltd", name_verified: true, verified_domains: [domain],
          organisation: {
            legal_name: "Acme Trading Ltd", lei: null, jurisdiction: "GB", basis: "documents", status: "verified",
            verified_at: expect.stringMatching(TIMESTAMP), domains: [domain],
          },
        },
      }],
      taken_down: null,
      as_of: expect.stringMatching(TIMESTAMP), signing_key_id: proved.integrity.signing_key_id, signature: expect.any(String),
    });
    expect(await lookupSignatureValid(r.body)).toBe(true);
    expect(await lookupSignatureValid({ ...r.body, result: "no_match" })).toBe(false);
  });

  it("lookup_no_match: an IBAN nobody has on record → a signed no_match", async () => {
    // An IBAN no test puts on record (on PostgreSQL the in-process tests share this database).
    const r = await exchange("lookup_no_match", "GET", "/api/v1/lookup?q=NL91%20ABNA%200417%201643%2000");
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      query: "NL91 ABNA 0417 1643 00", normalized: "NL91ABNA0417164300", type: "iban", result: "no_match", matches: [], taken_down: null,
    });
    expect(await lookupSignatureValid(r.body)).toBe(true);
  });

  it("error_invalid_iban: an IBAN with wrong check digits → 422, not a lookup of something else", async () => {
    const r = await exchange("error_invalid_iban", "GET", "/api/v1/lookup?q=GB82WEST12345698765431");
    expectError(r, 422, "invalid_request_error", "invalid_iban", "q");
  });
});

describe("documented examples: every signed thing shown was verified independently", () => {
  it("each example showing a record, a signed status or a signed answer had its Ed25519 signature checked against the JWKS", () => {
    const signed = [
      "create_record", "create_record_replay", "create_record_live", "get_record", "get_status", "get_signature", "get_status_at",
      "lifecycle_suspend", "lifecycle_reinstate", "lifecycle_supersede", "create_record_domain_ownership", "create_record_wallet_evm",
      "create_record_wallet_bitcoin", "create_record_wallet_bitcoin_legacy", "create_record_wallet_solana", "create_record_exchange_trade_test",
      "create_record_agent", "company_identity_create", "evm_transaction_create", "create_record_agent_payment", "lookup_verified", "lookup_no_match",
    ];
    for (const name of signed) expect(signaturesVerified.get(name), name).toBeGreaterThanOrEqual(1);
  });
});
