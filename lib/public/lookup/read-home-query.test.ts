import { describe, expect, it } from "vitest";
import { checkFieldFor, readHomeQuery } from "./read-home-query";

describe("readHomeQuery: the home page's one box", () => {
  it("opens a record id or a certificate link as the certificate", () => {
    expect(readHomeQuery(" prs-01jq8z3m7t5w9xkd4rbn ")).toEqual({ kind: "record", id: "PRS-01JQ8Z3M7T5W9XKD4RBN" });
    expect(readHomeQuery("https://proof.example/r/PRS-01JQ8Z3M7T5W9XKD4RBN")).toEqual({ kind: "record", id: "PRS-01JQ8Z3M7T5W9XKD4RBN" });
  });

  it("looks up an IBAN, a wallet, a website and a listing link", () => {
    const kinds = (t: string) => {
      const r = readHomeQuery(t);
      return r.kind === "lookup" ? r.request.candidates.map((c) => [c.kind, c.value]) : r;
    };
    expect(kinds("de89 3704 0044 0532 0130 00")).toEqual([["iban", "DE89370400440532013000"]]);
    expect(kinds("0x52908400098527886E0F7030069857D2E4169EE7")).toEqual([["wallet", "0x52908400098527886e0f7030069857d2e4169ee7"]]);
    expect(kinds("https://www.Seaview.example.com/")).toEqual([["website", "seaview.example.com"]]);
    expect(kinds("seaview.example.com/listing/4471")).toEqual([["listing_url", "https://seaview.example.com/listing/4471"]]);
  });

  it("reads a company's name or its LEI (with or without spaces) as an operator for the full check", () => {
    // 549300PRSACTIVE00188: ISO 17442 check digits 88.
    expect(readHomeQuery("5493 00PR SACT IVE0 0188")).toEqual({ kind: "operator", operator: "549300PRSACTIVE00188" });
    expect(readHomeQuery(" 549300prsactive00188 ")).toEqual({ kind: "operator", operator: "549300PRSACTIVE00188" });
    // Wrong check digits: no LEI (left to the lookup as a licence number).
    expect(readHomeQuery("549300PRSACTIVE00189").kind).not.toBe("operator");
    expect(readHomeQuery("Seaview  Apartments Ltd")).toEqual({ kind: "operator", operator: "Seaview Apartments Ltd" });
    expect(readHomeQuery("Müller & Söhne GmbH")).toEqual({ kind: "operator", operator: "Müller & Söhne GmbH" });
    expect(readHomeQuery("O'Brien (UK) Ltd.")).toEqual({ kind: "operator", operator: "O'Brien (UK) Ltd." });
    // A wrong IBAN with spaces stays an IBAN typo, never a name; one word stays a lookup (licence number or handle).
    expect(readHomeQuery("DE89 3704 0044 0532 0130 01").kind).toBe("refused");
    expect(readHomeQuery("Seaview").kind).not.toBe("operator");
  });

  it("refuses, in plain words, what it cannot read", () => {
    const message = (t: string) => {
      const r = readHomeQuery(t);
      return r.kind === "refused" ? r.message : `not refused: ${r.kind}`;
    };
    expect(message("PRS-nope")).toMatch(/^That is not a record id/);
    expect(message("https://proof.example/r/PRS-123")).toMatch(/^That is not a record id/);
    expect(message("DE89 3704 0044 0532 0130 01")).toMatch(/looks like an IBAN, but its check digits are wrong/);
    expect(message("0x1234")).toMatch(/looks like a wallet address/);
    expect(message("ftp://example.com")).toMatch(/^We could not tell what that is/);
    expect(message("a\u202Eb.com")).toMatch(/hidden or control characters/);
    expect(message("   ")).toMatch(/^Type a record id/);
    expect(message("x".repeat(501))).toMatch(/too long/);
    for (const t of ["PRS-nope", "DE89 3704 0044 0532 0130 01", "ftp://example.com"]) expect(message(t)).not.toMatch(/'q'|'type'/);
  });

  it("prefills the full check's payee for an IBAN or wallet and its website for a website or listing link", () => {
    expect(checkFieldFor("iban")).toBe("payee");
    expect(checkFieldFor("wallet")).toBe("payee");
    expect(checkFieldFor("website")).toBe("website");
    expect(checkFieldFor("listing_url")).toBe("website");
    expect(checkFieldFor("licence_number")).toBeNull();
  });
});
