import { describe, expect, it } from "vitest";
import { excerptOf, RESPONSE_EXCERPT_BYTES } from "./send-webhook";

describe("the kept start of a webhook endpoint's answer", () => {
  it("keeps the first 1 KiB, never half a character, without NUL", () => {
    expect(excerptOf([Buffer.from("ok")])).toBe("ok");
    expect(excerptOf([Buffer.from("a".repeat(3000))])).toBe("a".repeat(RESPONSE_EXCERPT_BYTES));
    // 1,023 ASCII bytes then "€" (3 bytes): the cut at 1,024 goes through the euro sign, which is left out.
    const text = excerptOf([Buffer.from("a".repeat(1023)), Buffer.from("€ and more")]);
    expect(text).toBe("a".repeat(1023));
    expect(excerptOf([Buffer.from("a".repeat(1021)), Buffer.from("€ and more")])).toBe(`${"a".repeat(1021)}€`);
    expect(excerptOf([Buffer.from("nul\0here")])).toBe("nulhere");
    expect(excerptOf([Buffer.from([0xff, 0x41])])).toBe("\uFFFDA");
    expect(excerptOf([])).toBe("");
  });
});
