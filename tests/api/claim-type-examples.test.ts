import { describe, expect, it } from "vitest";
import { documentedClaimTypes } from "@/lib/claims/registry";
import { call, newAccount } from "../helpers";
import { verifyWithJwks } from "../signatures";

/**
 * Every claim type over HTTP, with nothing in this file naming one (issue 40, item 4): the
 * types are the registry's, so a new one — a scaffolded one in `npm run test:scaffold` — is
 * tested here the moment it is registered. For each, the server's published OpenAPI document
 * carries its example request and evidence schema, and the server refuses its example at a
 * level it does not issue at (`request.levels`) before anything is asked of a source. A type
 * whose check asks no outside source (`checking.offline`) has its documented example answered
 * over HTTP: issued at one of its levels (or sent to review at one), and the record object, the
 * signed status (jose + canonicalize) and the certificate name its type and subject.
 */

const LEVELS = ["participant_attested", "source_verified", "evidence_verified"] as const;
const exampleKey = (type: string) => (type === "*" ? "reviewed" : type); // lib/openapi/claim-type-docs.ts

// The types the server documents. This process's registry can hold more: a file of the shared
// vitest process may have registered a toy type the server never heard of (tests/scaffold.test.ts).
const doc = (await call("GET", "/api/v1/openapi.json")).body;
const published = doc.paths["/api/v1/records"].post.requestBody.content["application/json"].examples as Record<string, { value: unknown }>;
const types = documentedClaimTypes().filter((m) => exampleKey(m.type) in published);
const rows = types.map((m) => [m.type, m] as const);
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

describe("every claim type, over HTTP", () => {
  it("the server documents exactly the registry's types", () => {
    expect(Object.keys(published).sort()).toEqual(types.map((m) => exampleKey(m.type)).sort());
    expect(types.length).toBeGreaterThanOrEqual(10);
  });

  it.each(rows)("%s: the published document carries its example and its evidence schema", (_type, m) => {
    expect(published[exampleKey(m.type)]!.value).toEqual(m.docs.example.value);
    const id = m.docs.evidenceSchema?.meta()?.id;
    if (id) expect(Object.keys(doc.components.schemas)).toContain(id);
  });

  it.each(rows.filter(([, m]) => (m.request.levels ?? LEVELS).length < LEVELS.length))(
    "%s: its example at a level it does not issue at is refused",
    async (_type, m) => {
      const { sandboxKey } = await newAccount("every-type");
      const level = LEVELS.find((l) => !m.request.levels!.includes(l))!;
      const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: { ...m.docs.example.value, evidence_level: level } });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ code: "evidence_level_not_allowed", param: "evidence_level" });
    },
  );

  it.each(rows.filter(([, m]) => m.checking?.offline))("%s: its documented example is answered without a source", async (_type, m) => {
    const example = m.docs.example.value as { subject: string; claim_type: string };
    const { sandboxKey } = await newAccount("every-type");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: example });
    expect([201, 202], r.text).toContain(r.status);
    const rec = r.body;
    expect(rec).toMatchObject({ claim_type: example.claim_type, subject: example.subject, environment: "sandbox" });
    const levels: readonly string[] = m.request.levels ?? LEVELS;
    const own = await call("GET", `/api/v1/records/${rec.verification_id}`, { key: sandboxKey });
    expect(own.body).toMatchObject({ verification_id: rec.verification_id, claim_type: example.claim_type, subject: example.subject, status: rec.status });

    const status = await call("GET", `/api/v1/records/${rec.verification_id}/status`);
    if (r.status === 202) {
      expect(rec.status).toBe("pending_review");
      expect(levels).toContain(rec.review.evidence_level);
      expect(status.status, "nothing is public until a reviewer issues it").toBe(404);
      return;
    }
    expect(rec.status).toBe("active");
    expect(levels).toContain(rec.evidence_level);
    expect(status.status).toBe(200);
    const { status_signature, ...signed } = status.body;
    expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
    expect(signed).toMatchObject({
      verification_id: rec.verification_id, status: "active", claim_type: example.claim_type, subject: example.subject, evidence_level: rec.evidence_level,
    });
    const certificate = await call("GET", `/r/${rec.verification_id}`);
    expect(certificate.status).toBe(200);
    expect(certificate.text).toContain(escapeHtml(example.subject));
  });
});
