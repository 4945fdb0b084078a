import { describe, expect, it } from "vitest";
import { isValidLei, leiCheckDigits } from "./lei-format";

// Vectors from protocols.md §1 (checked there against fast-lei and real register records).
const VALID = [
  "724500VKKSH9QOLTFR81", "636700STJZG4U8W2I596", "529900T8BM49AURSDO55", "5493001KJTIIGC8Y1R12",
  "9845001B2AD43E664E58", "549300LBI3LRIZ2V8V66", "213800WAVVOPS85N2205",
];

describe("LEI check digits (ISO 17442, ISO 7064 MOD 97-10)", () => {
  it.each(VALID)("accepts %s", (lei) => expect(isValidLei(lei)).toBe(true));

  it("refuses the invalid vector 969500T3MBS4SQAMHJ45", () => expect(isValidLei("969500T3MBS4SQAMHJ45")).toBe(false));

  it("generates the check digits of the fast-lei vector", () => expect(leiCheckDigits("969500KSV493XWY0PS")).toBe("33"));

  it.each(VALID)("generates the check digits of %s from its base", (lei) => expect(leiCheckDigits(lei.slice(0, 18))).toBe(lei.slice(18)));

  it("refuses every other pair of check digits", () => {
    const base = VALID[0]!.slice(0, 18);
    const others = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0")).filter((d) => d !== "81");
    expect(others.filter((d) => isValidLei(base + d))).toEqual([]);
  });

  it("catches a single changed character and swapped neighbours", () => {
    const lei = "5493001KJTIIGC8Y1R12";
    expect(isValidLei("5493001KJTIIGC8Y1R13")).toBe(false);
    expect(isValidLei("5493001KJTIIGC8Y1S12")).toBe(false);
    expect(isValidLei(lei.slice(0, 6) + lei[7] + lei[6] + lei.slice(8))).toBe(false);
  });

  it.each([
    ["lower case", "5493001kjtiigc8y1r12"],
    ["19 characters", "5493001KJTIIGC8Y1R1"],
    ["21 characters", "5493001KJTIIGC8Y1R121"],
    ["letters in the check digits", "5493001KJTIIGC8Y1RAB"],
    ["a space", "5493001KJTIIGC8Y 112"],
    ["empty", ""],
  ])("refuses the wrong format: %s", (_, lei) => expect(isValidLei(lei)).toBe(false));

  it("refuses a base that is not 18 upper-case letters or digits", () => {
    expect(() => leiCheckDigits("969500ksv493xwy0ps")).toThrow();
    expect(() => leiCheckDigits("969500KSV493XWY0P")).toThrow();
  });
});
