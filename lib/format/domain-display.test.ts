import { describe, expect, it } from "vitest";
import { domainDisplay, domainDisplayText, isPlainLabel, resolvedScripts } from "./domain-display";

describe("domainDisplay (TR39 mixed-script and confusable detection)", () => {
  it("shows a Cyrillic look-alike of apple.com with its A-label beside it", () => {
    expect(domainDisplay("аррӏе.com")).toEqual({ text: "аррӏе.com", aLabel: "xn--80ak6aa92e.com" });
    expect(domainDisplayText("аррӏе.com")).toBe("аррӏе.com (xn--80ak6aa92e.com)");
  });

  it("shows a label mixing Latin and Cyrillic with its A-label (mixed script)", () => {
    const d = domainDisplay("pаypal.com"); // Cyrillic а
    expect(d.aLabel).toMatch(/^xn--/);
    expect(resolvedScripts("pаypal").size).toBe(0);
  });

  it("shows ASCII and single-script, non-confusable names as typed", () => {
    expect(domainDisplay("example.com")).toEqual({ text: "example.com", aLabel: null });
    expect(domainDisplay("Example.COM").text).toBe("example.com");
    expect(domainDisplay("xn--80ak6aa92e.com").aLabel).toBeNull(); // already the A-label
    expect(domainDisplay("münchen.de").aLabel).toBeNull();
    expect(domainDisplay("bücher.example").aLabel).toBeNull();
    expect(domainDisplay("日本語.jp").aLabel).toBeNull();
    expect(domainDisplay("ひらがな漢字.jp").aLabel).toBeNull(); // Hiragana with Han: one augmented script (Japanese)
  });

  it("labels: Common characters (digits, hyphen) go with any script; Latin with Greek does not", () => {
    expect(isPlainLabel("my-shop-2")).toBe(true);
    expect(isPlainLabel("bücher-2")).toBe(true);
    expect(resolvedScripts("abcβ").size).toBe(0);
  });

  it("a single-script label with a character confusable with another is shown with its A-label", () => {
    expect(isPlainLabel("аррӏе")).toBe(false); // all Cyrillic, but every letter looks Latin
    expect(resolvedScripts("аррӏе").has("Cyrillic")).toBe(true);
  });
});
