import { describe, expect, it } from "vitest";
import { whoActed } from "./get-certificate";

const at = new Date("2026-11-26T04:10:00Z");

describe("whoActed: when, by whom and why a certificate says it was suspended or revoked", () => {
  it("names the issuing account as every public answer does: a self-declared name marked so", () => {
    expect(whoActed("revoked", { status: "revoked", by: "owner", reason: "Domain sold.", at }, { name: "Globex", name_verified: false }))
      .toEqual({ text: "Revoked by the account that issued it, an account calling itself “Globex” (name not verified): Domain sold.", at, by: "owner" });
    expect(whoActed("suspended", { status: "suspended", by: "owner", reason: "Checking.", at }, { name: "Globex Corporation", name_verified: true })?.text)
      .toBe("Suspended by the account that issued it, Globex Corporation: Checking.");
  });

  it("names Proof Records for staff and reviewers, and its checks for the system", () => {
    expect(whoActed("suspended", { status: "suspended", by: "staff", reason: "Reported as a scam.", at })).toMatchObject({ text: "Suspended by Proof Records: Reported as a scam.", by: "staff" });
    expect(whoActed("revoked", { status: "revoked", by: "reviewer", reason: null, at })?.text).toBe("Revoked by Proof Records: no reason given");
    expect(whoActed("suspended", { status: "suspended", by: "system", reason: "The LEI lapsed.", at })).toMatchObject({ text: "Suspended automatically by Proof Records' checks: The LEI lapsed.", by: "system" });
  });

  it("says nothing for another status, or when the last entry is not the move into this one", () => {
    expect(whoActed("active", { status: "active", by: "owner", reason: "Issued.", at })).toBeNull();
    expect(whoActed("expired", { status: "expired", by: "system", reason: "Validity period ended.", at })).toBeNull();
    expect(whoActed("revoked", { status: "suspended", by: "staff", reason: "x", at })).toBeNull();
    expect(whoActed("revoked", undefined)).toBeNull();
  });
});
