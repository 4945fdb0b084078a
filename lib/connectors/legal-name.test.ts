import { describe, expect, it } from "vitest";
import { legalNameKey, sameLegalName } from "./legal-name";

describe("legal-name comparison (NFKC, case folding, white space)", () => {
  it.each([
    ["case", "ACME Holdings Ltd", "acme holdings ltd"],
    ["collapsed and trimmed white space", "  Acme \t Holdings\n Ltd ", "Acme Holdings Ltd"],
    ["no-break and ideographic spaces", "Acme\u00a0Holdings\u3000Ltd", "Acme Holdings Ltd"],
    ["full-width letters (NFKC)", "ＡＣＭＥ Holdings", "ACME Holdings"],
    ["ligatures (NFKC)", "Ｏﬀshore ﬁnance", "offshore finance"],
    ["composed and decomposed accents", "Soci\u00e9t\u00e9 G\u00e9n\u00e9rale", "Socie\u0301te\u0301 Ge\u0301ne\u0301rale"],
    ["sharp s folds to ss", "Straße GmbH", "STRASSE GMBH"],
    ["Greek final sigma", "ΟΔΟΣ ΑΕ", "οδοσ αε"],
  ])("treats as equal: %s", (_, a, b) => expect(sameLegalName(a, b)).toBe(true));

  it.each([
    ["a different word", "Acme Holdings Ltd", "Acme Holding Ltd"],
    ["punctuation", "Acme Holdings Ltd.", "Acme Holdings Ltd"],
    ["a missing space", "Acme Holdings", "AcmeHoldings"],
    ["a different accent", "Société", "Societe"],
  ])("keeps apart: %s", (_, a, b) => expect(sameLegalName(a, b)).toBe(false));

  it("gives the comparison form", () => expect(legalNameKey("  UK  Equity FUND (Offshore) ")).toBe("uk equity fund (offshore)"));
});
