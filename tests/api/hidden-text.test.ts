import { describe, expect, it } from "vitest";
import { call, issue, newAccount } from "../helpers";

/**
 * Bidi controls and zero-width characters are refused in every free-text field shown publicly
 * (CONTRACT "What still stands"): lifecycle reasons and the evidence text of a listing among
 * them. 422 invalid_format naming the field; nothing is written.
 */
const listing = (evidence: Record<string, unknown>) => ({
  subject: "Seaview Apartments", claim_type: "verified_listing", claim: "Seaview Apartments runs listing 4471.", visibility: "public",
  evidence: {
    operator: "Seaview Apartments", listing_url: "https://rentals.example/listing/4471", domain: "seaview.example.com",
    payee: { type: "iban", value: "GB33BUKB20201555555555" }, ...evidence,
  },
});

describe("hidden text refused where it is shown publicly", () => {
  it("refuses a bidi override or a zero-width character in a lifecycle reason, and the record is unchanged", async () => {
    const { sandboxKey } = await newAccount("hidden");
    const rec = await issue(sandboxKey);
    for (const reason of ["Paused \u202Eesuaceb", "Paused\u200Bfor audit", "Paused \u2066for\u2069 audit"]) {
      const r = await call("POST", `/api/v1/records/${rec.verification_id}/lifecycle`, { key: sandboxKey, body: { operation: "suspend", reason } });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ code: "invalid_format", param: "reason" });
    }
    expect((await call("GET", `/api/v1/records/${rec.verification_id}/status`)).body.status).toBe("active");
    const ok = await call("POST", `/api/v1/records/${rec.verification_id}/lifecycle`, { key: sandboxKey, body: { operation: "suspend", reason: "Paused for an audit." } });
    expect(ok.status, ok.text).toBe(200);
  });

  it.each([
    ["a bidi override in the operator", { operator: "Seaview \u202EstnemtrapA" }, "evidence.operator"],
    ["a zero-width space in the operator", { operator: "Seaview\u200BApartments" }, "evidence.operator"],
    ["a bidi isolate in the licence authority", { licence: { authority: "City \u2066Council\u2069", number: "L-1" } }, "evidence.licence.authority"],
    ["a bidi mark in the licence number", { licence: { authority: "City Council", number: "L-1\u200F" } }, "evidence.licence.number"],
    ["a zero-width joiner in the payee's account name", { payee: { type: "iban", value: "GB33BUKB20201555555555", account_name: "Sea\u200Dview" } }, "evidence.payee.account_name"],
    ["a BOM in the payee's bank name", { payee: { type: "iban", value: "GB33BUKB20201555555555", bank_name: "Bar\uFEFFclays" } }, "evidence.payee.bank_name"],
  ])("refuses a listing with %s", async (_what, evidence, param) => {
    const { sandboxKey } = await newAccount("hidden");
    const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: listing(evidence) });
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code: "invalid_format", param });
    expect((await call("GET", "/api/v1/records", { key: sandboxKey })).body.data).toHaveLength(0);
  });

  it("refuses a bidi control in an agent's principal and act", async () => {
    const { sandboxKey } = await newAccount("hidden");
    const agent = { subject: "Agent 7", claim_type: "agent_authorization", claim: "Agent 7 pays invoices.", agent_id: "agent-7", principal: "Acme", act: "pay_invoices" };
    for (const [field, value] of [["principal", "Acme \u202Etd"], ["act", "pay\u200Binvoices"]] as const) {
      const r = await call("POST", "/api/v1/records", { key: sandboxKey, body: { ...agent, [field]: value } });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ code: "invalid_format", param: field });
    }
  });
});
