import canonicalize from "canonicalize";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl, call, companyStatus, issue, newAccount, newLiveAccount } from "../helpers";
import { verifyWithJwks } from "../signatures";

/** A claim about Acme Trading Ltd that cites its source: [name, URL, when it was checked]. */
const submitCited = (key: string, claimType: string, claim: string, [name, url, checkedAt]: [string, string, string], evidence?: Record<string, unknown>) =>
  call("POST", "/api/v1/records", {
    key, body: { subject: "Acme Trading Ltd", claim_type: claimType, claim, source_name: name, source_url: url, checked_at: checkedAt, ...(evidence ? { evidence } : {}) },
  });

describe("records: happy path", () => {
  it("issues a company_status record with every URL, lifecycle and integrity field", async () => {
    const { sandboxKey } = await newAccount();
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: companyStatus() });
    expect(r.status).toBe(201);
    const rec = r.body;
    expect(rec.verification_id).toMatch(/^PRS-[0-9A-HJKMNP-TV-Z]{20}$/);
    expect(rec).toMatchObject({
      object: "record", status: "active", environment: "sandbox", verified: false,
      // Asked for public (companyStatus()); a sandbox record is private whatever was asked.
      claim_type: "company_status", evidence_level: "participant_attested", visibility: "private",
      certificate_url: `${baseUrl()}/r/${rec.verification_id}`,
      qr_url: `${baseUrl()}/r/${rec.verification_id}/qr`,
      signature_url: `${baseUrl()}/api/v1/records/${rec.verification_id}/signature`,
      status_url: `${baseUrl()}/api/v1/records/${rec.verification_id}/status`,
      integrity: { algorithm: "Ed25519", canonicalization: "RFC8785" },
    });
    expect(rec.lifecycle.history).toEqual([{ status: "active", at: rec.lifecycle.issued_at, reason: "Issued.", by: "owner" }]);
    expect(rec.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.headers.get("access-control-allow-origin")).toBeNull();

    const got = await call("GET", `/api/v1/records/${rec.verification_id}`, { key: sandboxKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(rec);
  });

  it("defaults visibility to private and validity to one year", async () => {
    const { liveKey } = await newLiveAccount();
    const rec = await issue(liveKey, { visibility: undefined });
    expect(rec.visibility).toBe("private");
    const days = (Date.parse(rec.lifecycle.expires_at) - Date.parse(rec.lifecycle.issued_at)) / 86_400_000;
    expect(days).toBe(365);
    expect((await issue(liveKey, { visibility: "public" })).visibility).toBe("public");
  });

  it("stores and answers a sandbox record as private whatever was asked", async () => {
    const { sandboxKey } = await newAccount();
    const asked = await call("POST", "/api/v1/records", { key: sandboxKey, body: companyStatus({ visibility: "public" }) });
    expect(asked.status, asked.text).toBe(201);
    expect(asked.body).toMatchObject({ environment: "sandbox", visibility: "private" });
    const id = asked.body.verification_id;
    expect((await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body.visibility).toBe("private");
    expect((await call("GET", "/api/v1/records", { key: sandboxKey })).body.data[0]).toMatchObject({ verification_id: id, visibility: "private" });
    const batch = await call("POST", "/api/v1/records/batch", { key: sandboxKey, body: { records: [companyStatus({ subject: "Batch Ltd", visibility: "public" })] } });
    expect(batch.status, batch.text).toBe(200);
    const row = await call("GET", `/api/v1/records/${batch.body.results[0].verification_id}`, { key: sandboxKey });
    expect(row.body.visibility).toBe("private");
    // Reachable by id, as every private record is; the certificate is never indexed.
    const page = await call("GET", `/r/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<meta name="robots" content="[^"]*noindex/);
  });

  it("a pending submission has no evidence level until issued; the level it would issue at is under review", async () => {
    const { sandboxKey } = await newAccount();
    const r = await submitCited(sandboxKey, "trade_licence", "Acme Trading Ltd holds trade licence 42.", ["City register", "https://register.example.org/42", "2026-01-05T09:00:00Z"]);
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({
      status: "pending_review", evidence_level: null, verified: false,
      review: { reason: expect.stringContaining("reviewer"), evidence_level: "evidence_verified" },
    });
    expect(Object.keys(r.body.review).sort()).toEqual(["evidence_level", "reason"]);
    const got = await call("GET", `/api/v1/records/${r.body.verification_id}`, { key: sandboxKey });
    expect(got.body).toEqual(r.body);
    const listed = await call("GET", "/api/v1/records?status=pending_review", { key: sandboxKey });
    expect(listed.body.data).toEqual([r.body]);
    // An issued record has its level and no review object.
    const issued = await issue(sandboxKey);
    expect(issued).toMatchObject({ evidence_level: "participant_attested", review: null });
  });

  it("sends a claim type without a connector to review: 202, no URLs, not public", async () => {
    const { sandboxKey } = await newAccount();
    const r = await submitCited(sandboxKey, "press_coverage", "Covered by the Financial Times.", ["Financial Times", "https://www.ft.com/content/abc", "2026-11-20T10:00:00Z"], { note: "page 3" });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      status: "pending_review", verified: false, certificate_url: null, qr_url: null, signature_url: null, status_url: null,
      integrity: null, evidence: { source_name: "Financial Times", source_url: "https://www.ft.com/content/abc", checked_at: "2026-11-20T10:00:00.000Z" },
    });
    expect(r.body.evidence.note).toBeUndefined();
    const id = r.body.verification_id;
    expect((await call("GET", `/api/v1/records/${id}/status`)).status).toBe(404);
    expect((await call("GET", `/r/${id}`)).status).toBe(404);
    expect((await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body.status).toBe("pending_review");
  });

  it("lists the account's records newest first with cursor pagination and filters", async () => {
    const { sandboxKey } = await newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await issue(sandboxKey, { subject: `Company ${i}` })).verification_id);
    const p1 = await call("GET", "/api/v1/records?limit=2", { key: sandboxKey });
    expect(p1.status).toBe(200);
    expect(p1.body.data.map((r: any) => r.verification_id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.has_more).toBe(true);
    const p2 = await call("GET", `/api/v1/records?limit=2&starting_after=${ids[1]}`, { key: sandboxKey });
    expect(p2.body.data.map((r: any) => r.verification_id)).toEqual([ids[0]]);
    expect(p2.body.has_more).toBe(false);
    const none = await call("GET", "/api/v1/records?status=revoked", { key: sandboxKey });
    expect(none.body.data).toEqual([]);
  });
});

describe("signatures, checked with independent libraries", () => {
  it("publishes Ed25519 keys in the JWKS format of the contract", async () => {
    const r = await call("GET", "/.well-known/jwks.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.body.keys.length).toBeGreaterThan(0);
    for (const k of r.body.keys) {
      expect(Object.keys(k).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x"]);
      expect(k).toMatchObject({ kty: "OKP", crv: "Ed25519", use: "sig", alg: "EdDSA" });
    }
  });

  it("signs the status answer so jose + canonicalize verify it, and a tampered answer fails", async () => {
    const { sandboxKey } = await newAccount();
    const rec = await issue(sandboxKey);
    const r = await call("GET", `/api/v1/records/${rec.verification_id}/status`);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const cc = r.headers.get("cache-control")!;
    const maxAge = Number(/s-maxage=(\d+)/.exec(cc)?.[1]);
    expect(cc).toMatch(/^public/);
    expect(maxAge).toBeLessThanOrEqual(60);
    const { status_signature, ...rest } = r.body;
    expect(rest).toMatchObject({
      verification_id: rec.verification_id, status: "active", environment: "sandbox", verified: false,
      claim_type: "company_status", subject: rec.subject, evidence_level: "participant_attested",
      issued_at: rec.lifecycle.issued_at, expires_at: rec.lifecycle.expires_at, certificate_url: rec.certificate_url,
    });

    expect(await verifyWithJwks(rest, status_signature, rest.signing_key_id)).toBe(true);
    expect(await verifyWithJwks({ ...rest, status: "revoked" }, status_signature, rest.signing_key_id)).toBe(false);
  });

  it("signs the record payload; /signature re-verifies it and jose agrees", async () => {
    const { sandboxKey } = await newAccount();
    const rec = await issue(sandboxKey, { claim: "Line one.\nLine two with ünïcode €." });
    const r = await call("GET", `/api/v1/records/${rec.verification_id}/signature`);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.body).toMatchObject({ verification_id: rec.verification_id, valid: true, algorithm: "Ed25519", signing_key_id: rec.integrity.signing_key_id });
    const payload = r.body.signed_payload;
    expect(payload).toEqual({
      id: rec.verification_id, environment: "sandbox", subject: rec.subject, claim_type: "company_status", claim: rec.claim,
      evidence_level: "participant_attested", evidence: {}, issued_at: rec.lifecycle.issued_at, valid_from: rec.lifecycle.valid_from,
      expires_at: rec.lifecycle.expires_at, account: { name: null },
      checks: [{ fact: "statement", by: "account", at: rec.lifecycle.issued_at }], issuer: baseUrl(),
    });
    const canonical = canonicalize(payload)!;
    expect(createHash("sha256").update(canonical).digest("hex")).toBe(rec.integrity.payload_sha256);
    expect(await verifyWithJwks(payload, rec.integrity.signature, rec.integrity.signing_key_id)).toBe(true);
    expect(await verifyWithJwks({ ...payload, subject: "Someone else" }, rec.integrity.signature, rec.integrity.signing_key_id)).toBe(false);
  });
});
