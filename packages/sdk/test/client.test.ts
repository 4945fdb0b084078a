// The SDK against the started server (the root suite's global setup): records, signed
// answers verified with the helpers, webhooks, typed errors.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl, newAccount } from "../../../tests/helpers";
import { AuthenticationError, InvalidRequestError, NotFoundError, PrsClient, PrsError, verifyCheck, verifyLookup, verifyStatus } from "../src/index.js";

const record = {
  subject: "SDK Trading Ltd",
  claim_type: "company_status",
  claim: "SDK Trading Ltd is an active company.",
  visibility: "public",
} as const;
// The lookup and check are rate limited per client address: this file speaks as its own client.
const asOwnClient = { headers: { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 200) + 1}` } };

async function sandboxClient() {
  const { sandboxKey } = await newAccount("sdk");
  return new PrsClient({ baseUrl: baseUrl(), apiKey: sandboxKey });
}

describe("@proof-records/sdk against the server", () => {
  it("creates a record; the same Idempotency-Key replays the same record", async () => {
    const prs = await sandboxClient();
    const key = randomUUID();
    const first = await prs.request("createRecord", { body: record }, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.idempotency_key).toBe(key);
    expect(first.request_id).toMatch(/^req_/);
    const again = await prs.request("createRecord", { body: record }, { idempotencyKey: key });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(first.data);
    // The namespaced method returns the record itself.
    const replayed = await prs.records.create(record, { idempotencyKey: key });
    expect(replayed.verification_id).toBe(first.data.verification_id);
    // A call without a key gets a fresh one: a second record.
    const other = await prs.records.create(record);
    expect(other.verification_id).not.toBe(first.data.verification_id);
  });

  it("reads a record and its signed status, and verifies the status with the JWKS", async () => {
    const prs = await sandboxClient();
    const created = await prs.records.create(record);
    const id = created.verification_id;
    expect((await prs.records.get(id)).subject).toBe(record.subject);
    const listed = await prs.records.list({ limit: 5 });
    expect(listed.data.map((r) => r.verification_id)).toContain(id);

    const status = await prs.records.status(id);
    expect(status.status).toBe("active");
    const jwks = await prs.jwks();
    expect(await verifyStatus(status, jwks, { verificationId: id })).toEqual({ valid: true, key_id: status.signing_key_id });
    expect(await prs.verifyStatus(status, { verificationId: id })).toMatchObject({ valid: true });
    // Tampered, about another record, or with a key not in the set: not valid, and said why.
    expect(await verifyStatus({ ...status, status: "revoked" }, jwks)).toMatchObject({ valid: false, code: "bad_signature" });
    expect(await verifyStatus(status, jwks, { verificationId: "PRS-0000000000000000000X" })).toMatchObject({ valid: false, code: "verification_id_mismatch" });
    expect(await verifyStatus(status, { keys: [] })).toMatchObject({ valid: false, code: "unknown_key" });

    // The status at an instant, signed the same way.
    const at = await prs.records.status(id, { at: new Date().toISOString() });
    expect(at.at).toBeDefined();
    expect(await verifyStatus(at, jwks, { verificationId: id })).toMatchObject({ valid: true });

    // The record's own signature, re-checked by the service.
    expect((await prs.records.signature(id)).valid).toBe(true);
  });

  it("lookup and check answers verify", async () => {
    const prs = new PrsClient({ baseUrl: baseUrl() }); // public endpoints: no key
    const jwks = await prs.jwks();
    const lookup = await prs.lookup({ q: "NL91 ABNA 0417 1643 00" }, asOwnClient);
    expect(lookup).toMatchObject({ type: "iban", normalized: "NL91ABNA0417164300", result: "no_match" });
    expect(await verifyLookup(lookup, jwks)).toMatchObject({ valid: true });
    expect(await verifyLookup({ ...lookup, result: "verified" }, jwks)).toMatchObject({ valid: false, code: "bad_signature" });
    const check = await prs.check({ website: "sdk-check.example" }, asOwnClient);
    expect(await verifyCheck(check, jwks)).toMatchObject({ valid: true });
    expect(await prs.verifyCheck(check)).toMatchObject({ valid: true });
    expect(await verifyCheck({ ...check, extra: 1 }, jwks)).toMatchObject({ valid: false, code: "bad_signature" });
  });

  it("keeps the JWKS for its max-age, and fetches it again on request", async () => {
    let fetches = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith("/.well-known/jwks.json")) fetches++;
      return fetch(input, init);
    };
    const prs = new PrsClient({ baseUrl: baseUrl(), fetch: counting });
    const [a, b] = await Promise.all([prs.jwks(), prs.jwks()]);
    expect(await prs.jwks()).toBe(a);
    expect(b).toBe(a);
    expect(fetches).toBe(1);
    await prs.jwks({ refresh: true });
    expect(fetches).toBe(2);
  });

  it("uploads a document (multipart) and applies to be a verified organisation with it", async () => {
    const prs = await sandboxClient();
    const form = new FormData();
    const pdf = "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n";
    form.append("file", new Blob([pdf], { type: "application/pdf" }), "authority.pdf");
    const file = await prs.files.upload(form);
    expect(file).toMatchObject({ object: "file", filename: "authority.pdf", content_type: "application/pdf", size_bytes: pdf.length });
    expect((await prs.files.get(file.id)).sha256).toBe(file.sha256);
    const applied = await prs.account.applyForOrganisationVerification({
      applicant: { name: "Ada Lovelace", role: "Director", email: "ada@example.com" }, documents: [file.id],
    });
    expect(applied).toMatchObject({ object: "organisation_verification", status: "pending", documents: [{ id: file.id }] });
    const state = await prs.account.organisationVerification();
    expect(state.application?.id).toBe(applied.id);
    expect(state.organisation).toBeNull();
  });

  it("registers and lists webhooks", async () => {
    const prs = await sandboxClient();
    const created = await prs.webhooks.create({ url: "http://127.0.0.1:9/sdk-hook", events: ["record.issued"], description: "SDK test" });
    expect(created.secret).toMatch(/^whsec_/);
    const list = await prs.webhooks.list();
    expect(list.data.map((w) => w.id)).toEqual([created.id]);
    expect(list.data[0]).not.toHaveProperty("secret");
    expect((await prs.webhooks.delete(created.id)).deleted).toBe(true);
    expect((await prs.webhooks.list()).data).toEqual([]);
  });

  it("errors are typed: class by type, with status, code, param and request_id", async () => {
    const prs = await sandboxClient();
    const e = await prs.records.create({ ...record, colour: "blue" } as never).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InvalidRequestError);
    expect(e).toBeInstanceOf(PrsError);
    expect(e).toMatchObject({ status: 422, type: "invalid_request_error", code: "unknown_field", param: "colour", message: "Unknown field 'colour'.", attempts: 1 });
    expect((e as PrsError).request_id).toMatch(/^req_/);

    const missing = await prs.records.get("PRS-0000000000000000000X").catch((x: unknown) => x);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: "record_not_found", param: "id" });

    const anonymous = new PrsClient({ baseUrl: baseUrl() });
    const unauth = await anonymous.usage().catch((x: unknown) => x);
    expect(unauth).toBeInstanceOf(AuthenticationError);
    expect(unauth).toMatchObject({ status: 401, code: "missing_api_key" });
  });
});
