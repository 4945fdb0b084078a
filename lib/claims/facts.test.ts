import { describe, expect, it } from "vitest";
import { checksOf } from "@/lib/trust/checks";
import { claimModuleFor } from "./registry";
import { hostIsProved, licenceOf, sameLicence } from "./verified-listing";

/**
 * What each claim type says was checked (CONTRACT "What was checked"): its `facts()` through
 * the one `checksOf`, at the level the service checked it and at a reviewer's.
 */
const at = new Date("2026-11-25T10:00:00Z");
const checks = (claimType: string, evidenceLevel: string, subject: string, evidence: Record<string, unknown>) =>
  checksOf({ evidenceLevel, subject, evidence, at }, claimModuleFor(claimType));

describe("facts per claim type", () => {
  it("domain_ownership: domain control, asked of DNS at the challenge's TXT name", () => {
    expect(checks("domain_ownership", "source_verified", "example.com", { txt_name: "_prs-challenge.example.com", txt_value: "prs-verification=x" })).toEqual([
      { fact: "domain_control", by: "source", source: "DNS TXT _prs-challenge.example.com", at: at.toISOString() },
    ]);
  });

  it("company_identity: LEI active and legal name, from the GLEIF register; a reviewer's approval makes both the reviewer's", () => {
    expect(checks("company_identity", "source_verified", "Acme Widgets Limited", { lei: "5493001KJTIIGC8Y1R12" }).map((c) => [c.fact, c.by, c.source])).toEqual([
      ["lei_active", "source", "GLEIF LEI register"],
      ["legal_name", "source", "GLEIF LEI register"],
    ]);
    expect(checks("company_identity", "evidence_verified", "Acme Widgets Limited", { lei: "5493001KJTIIGC8Y1R12" }).map((c) => c.by)).toEqual(["reviewer", "reviewer"]);
  });

  it("wallet_ownership by signature; evm_transaction by the network's RPC", () => {
    expect(checks("wallet_ownership", "source_verified", "0x8ba1f109551bD432803012645Ac136ddd64DBA72", {})).toEqual([
      { fact: "wallet_control", by: "signature", at: at.toISOString() },
    ]);
    expect(checks("evm_transaction", "source_verified", "Payment", { network: "base", tx_hash: "0x" + "1".repeat(64) })).toEqual([
      { fact: "transaction", by: "source", source: "base RPC", at: at.toISOString() },
    ]);
  });

  it("agent_authorization: the mandate signature when signed; an unsigned mandate is the account's statement", () => {
    expect(checks("agent_authorization", "source_verified", "agent-7", { mandate_signature: "x".repeat(86), principal_key_id: "acme-2026" })).toEqual([
      { fact: "mandate_signature", by: "signature", source: "mandate key acme-2026", at: at.toISOString() },
    ]);
    expect(checks("agent_authorization", "participant_attested", "agent-7", {})).toEqual([{ fact: "statement", by: "account", at: at.toISOString() }]);
  });

  it("verified_listing: one fact per part, each naming the record that checked it; parts a reviewer confirmed name none", () => {
    const evidence = {
      operator: "Seaview Apartments", listing_url: "https://seaview.example.com/4471", domain: "seaview.example.com",
      payee: { type: "wallet", value: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", network: "ethereum" },
      domain_record: "PRS-9Q7K2M4N6P8R0T1V3W5X", payee_record: "PRS-1A2B3C4D5E6F7G8H9J0K", checked_at: at.toISOString(),
    };
    expect(checks("verified_listing", "source_verified", "Seaview", evidence).map((c) => [c.fact, c.by, c.source])).toEqual([
      ["operator", "source", "the account's organisation verification (Seaview Apartments)"],
      ["listing_link", "source", "domain_ownership record PRS-9Q7K2M4N6P8R0T1V3W5X"],
      ["domain", "source", "domain_ownership record PRS-9Q7K2M4N6P8R0T1V3W5X"],
      ["payee", "source", "wallet_ownership record PRS-1A2B3C4D5E6F7G8H9J0K"],
    ]);
    const reviewed = checks("verified_listing", "evidence_verified", "Seaview", {
      ...evidence, licence: { authority: "Malta Tourism Authority", number: "HPI/1234" }, reviewed_parts: ["operator", "licence"],
    });
    expect(reviewed.map((c) => [c.fact, c.by, c.source])).toEqual([
      ["operator", "reviewer", undefined],
      ["listing_link", "reviewer", "domain_ownership record PRS-9Q7K2M4N6P8R0T1V3W5X"],
      ["domain", "reviewer", "domain_ownership record PRS-9Q7K2M4N6P8R0T1V3W5X"],
      ["payee", "reviewer", "wallet_ownership record PRS-1A2B3C4D5E6F7G8H9J0K"],
      ["licence", "reviewer", undefined],
    ]);
  });

  it("a type without facts (the reviewed fallback) is one claim, by the reviewer, on the named source", () => {
    expect(checks("press_coverage", "evidence_verified", "Acme", { source_name: "Financial Times" })).toEqual([
      { fact: "claim", by: "reviewer", source: "Financial Times", at: at.toISOString() },
    ]);
  });
});

describe("verified_listing part rules", () => {
  it("the listing link's host is the proved domain exactly, or www. + it; nothing else", () => {
    expect(hostIsProved("https://seaview.example.com/listing/1", "seaview.example.com")).toBe(true);
    expect(hostIsProved("https://WWW.Seaview.Example.com./x", "seaview.example.com")).toBe(true);
    expect(hostIsProved("https://rentals.example/listing/4471", "seaview.example.com")).toBe(false);
    expect(hostIsProved("https://book.seaview.example.com/x", "seaview.example.com")).toBe(false);
    expect(hostIsProved("https://seaview.example.com.evil.example/x", "seaview.example.com")).toBe(false);
    expect(hostIsProved("https://example.com/x", "www.example.com")).toBe(false);
  });

  it("a licence record's licence is compared by authority (as names) and number (without case or white space)", () => {
    expect(licenceOf({ licence: { authority: "MTA", number: "HPI 1234" } })).toEqual({ authority: "MTA", number: "HPI 1234" });
    expect(licenceOf({ licence_authority: "MTA", licence_number: "1" })).toEqual({ authority: "MTA", number: "1" });
    expect(licenceOf({ source_name: "MTA" })).toBeNull();
    expect(sameLicence({ authority: "Malta  Tourism Authority", number: "hpi 1234" }, { authority: "malta tourism authority", number: "HPI1234" })).toBe(true);
    expect(sameLicence({ authority: "MTA", number: "HPI-1234" }, { authority: "MTA", number: "HPI/1234" })).toBe(false);
    expect(sameLicence({ authority: "MTA", number: "1234" }, { authority: "MTA", number: "12345" })).toBe(false);
    expect(sameLicence({ authority: "MTA", number: "1234" }, { authority: "Another", number: "1234" })).toBe(false);
  });
});
