import { describe, expect, it } from "vitest";
import { spendSummary } from "./spend-summary";

describe("the agent's spend ledger as the owner's page shows it", () => {
  it("absent or of another shape: nothing", () => {
    for (const v of [undefined, null, "3", [], {}, { count: "3" }, { count: -1 }, { count: 1.5 }]) expect(spendSummary(v)).toBeNull();
  });

  it("a count with totals per network in the native coin, wei shown beside the coin amount", () => {
    expect(spendSummary({ count: 3, totals: [{ network: "base", asset: "ETH", value: "750000000000000000" }, { network: "polygon", asset: "POL", value: "12.5" }, "x"] }))
      .toEqual({ count: 3, totals: [{ label: "base · ETH", amount: "0.75 ETH (750000000000000000 wei)" }] });
    expect(spendSummary({ count: 0, totals: [] })).toEqual({ count: 0, totals: [] });
  });
});
