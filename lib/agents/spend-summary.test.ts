import { describe, expect, it } from "vitest";
import { spendSummary } from "./spend-summary";

describe("the agent's spend ledger as the owner's page shows it", () => {
  it("absent or of another shape: nothing", () => {
    for (const v of [undefined, null, "3", [], {}, { count: "3" }, { count: -1 }, { count: 1.5 }]) expect(spendSummary(v)).toBeNull();
  });

  it("a count with totals per network and asset, as a list", () => {
    expect(spendSummary({ count: 3, totals: [{ network: "base", asset: "USDC", amount: "120.50" }, { network: "base", value: "1000000000000000000" }, { bogus: 1 }, "x"] }))
      .toEqual({ count: 3, totals: [{ label: "base · USDC", amount: "120.50" }, { label: "base · native coin", amount: "1000000000000000000 wei" }] });
  });

  it("or as a map network → asset → amount", () => {
    expect(spendSummary({ count: 2, totals: { base: { ETH: "5" }, polygon: "7" } }))
      .toEqual({ count: 2, totals: [{ label: "base · ETH", amount: "5" }, { label: "polygon", amount: "7" }] });
    expect(spendSummary({ count: 0 })).toEqual({ count: 0, totals: [] });
  });
});
