import { describe, expect, it } from "vitest";
import { nameKey, registrableDomain, skeletonOf, watchValue } from "./watch-value";

describe("watch values", () => {
  it("a domain is watched as its registrable domain; a Cyrillic look-alike has the Latin one's skeleton", () => {
    const latin = watchValue("domain", "https://WWW.shop.example.co.uk/x?y=1");
    // TR39's skeleton, not a lower-casing: `m` maps to `rn`, so "exarnple" is a look-alike too.
    expect(latin).toEqual({ matchKey: "example.co.uk", skeleton: "exarnple.co.uk" });
    const cyrillic = watchValue("domain", "ex\u0430mple.co.uk");
    expect("matchKey" in cyrillic && cyrillic.matchKey).toMatch(/^xn--/);
    expect("skeleton" in cyrillic && cyrillic.skeleton).toBe("exarnple.co.uk");
    expect(watchValue("domain", "exarnple.co.uk")).toMatchObject({ skeleton: "exarnple.co.uk" });
    expect(watchValue("domain", "examp1e.co.uk")).toMatchObject({ skeleton: "exarnple.co.uk" }); // digit one for l
    expect(registrableDomain("localhost")).toBeNull();
    expect(registrableDomain("co.uk")).toBeNull();
    expect(registrableDomain("192.0.2.1")).toBeNull();
  });

  it("a name is NFKC, case-folded and whitespace-collapsed; its skeleton maps confusables", () => {
    expect(nameKey("  ＡＣＭＥ   Straße\tLtd ")).toBe("acme strasse ltd");
    expect(skeletonOf(nameKey("\u0410cme Ltd"))).toBe(skeletonOf(nameKey("Acme Ltd"))); // Cyrillic А
    expect(skeletonOf("acme")).not.toBe(skeletonOf("acne"));
    expect(watchValue("name", "1")).toMatchObject({ error: { code: "invalid_name" } });
  });

  it("IBAN, wallet and LEI are checked as the lookup and the LEI register check them", () => {
    expect(watchValue("iban", "gb33 bukb 2020 1555 5555 55")).toEqual({ matchKey: "GB33BUKB20201555555555", skeleton: null });
    expect(watchValue("iban", "GB34BUKB20201555555555")).toMatchObject({ error: { code: "invalid_iban" } });
    expect(watchValue("wallet", "0x52908400098527886E0F7030069857D2E4169EE7")).toMatchObject({ matchKey: "0x52908400098527886e0f7030069857d2e4169ee7" });
    expect(watchValue("lei", "5493001kjtiigc8y1r12")).toEqual({ matchKey: "5493001KJTIIGC8Y1R12", skeleton: null });
    expect(watchValue("lei", "5493001KJTIIGC8Y1R13")).toMatchObject({ error: { code: "invalid_lei" } });
  });
});
