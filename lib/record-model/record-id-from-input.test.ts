import { describe, expect, it } from "vitest";
import { recordIdFromInput } from "./record-id-from-input";

const id = "PRS-0123456789ABCDEFGHJK";

describe("recordIdFromInput", () => {
  it("takes the id as typed, in any case, with or without PRS-", () => {
    expect(recordIdFromInput(id)).toBe(id);
    expect(recordIdFromInput(`  ${id.toLowerCase()} `)).toBe(id);
    expect(recordIdFromInput(id.slice(4))).toBe(id);
  });

  it("finds it in a pasted certificate link", () => {
    expect(recordIdFromInput(`https://proof.example/r/${id}?x=1`)).toBe(id);
  });

  it("reads I, L and O as 1, 1 and 0", () => {
    expect(recordIdFromInput("PRS-O123456789ABCDEFGHJK")).toBe(id);
    expect(recordIdFromInput("PRS-0I23456789ABCDEFGHJK")).toBe("PRS-0123456789ABCDEFGHJK");
  });

  it("refuses anything else", () => {
    for (const bad of ["", "PRS-", "PRS-0123", `${id}9`, "PRS-0123456789ABCDEFGHJU", "hello world", "x".repeat(10_000)]) {
      expect(recordIdFromInput(bad), bad.slice(0, 30)).toBeNull();
    }
  });
});
