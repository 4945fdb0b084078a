import { describe, expect, it } from "vitest";
import { editDistance, nearestClaimType } from "./nearest-claim-type";

describe("editDistance", () => {
  it.each([
    ["company_status", "company_status", 0],
    ["company_stauts", "company_status", 1], // one transposition
    ["compnay_stauts", "company_status", 2],
    ["company_statu", "company_status", 1],
    ["company_statuss", "company_status", 1],
    ["kompany_status", "company_status", 1],
    ["ca", "abc", 3], // OSA, not unrestricted Damerau-Levenshtein (which says 2)
    ["", "abc", 3],
    ["press_coverage", "company_status", 14],
  ])("%s → %s is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it("stops early past the bound, answering bound + 1", () => {
    expect(editDistance("press_coverage", "company_status", 2)).toBe(3);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
  });
});

describe("nearestClaimType", () => {
  const known = ["company_status", "company_identity", "exchange_verified_trade", "exchange_verified_trade_test"];
  it("names the known type a typo is near", () => {
    expect(nearestClaimType("company_stauts", known)).toBe("company_status");
    expect(nearestClaimType("company_identiy", known)).toBe("company_identity");
    expect(nearestClaimType("exchange_verified_trade_tset", known)).toBe("exchange_verified_trade_test");
    expect(nearestClaimType("exchange_verified_trades", known)).toBe("exchange_verified_trade");
  });
  it("is null for a known type and for a type far from all", () => {
    expect(nearestClaimType("company_status", known)).toBeNull();
    expect(nearestClaimType("press_coverage", known)).toBeNull();
    expect(nearestClaimType("trade_licence", known)).toBeNull();
    expect(nearestClaimType("company_st", known)).toBeNull(); // four edits away
  });
});
