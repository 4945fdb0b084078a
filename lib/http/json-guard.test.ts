import { describe, expect, it } from "vitest";
import { checkJsonInput } from "./json-guard";

describe("checkJsonInput", () => {
  it("refuses a number JSON.parse made infinite, naming where it is (it has no canonical form to hash)", () => {
    expect(checkJsonInput(JSON.parse('{"claim":1e999}'))).toMatchObject({ code: "invalid_value", param: "claim" });
    expect(checkJsonInput(JSON.parse('{"records":[{"evidence":{"n":-1e999}}]}'))).toMatchObject({ code: "invalid_value", param: "records[0].evidence.n" });
    expect(checkJsonInput(JSON.parse('{"a":1e308,"b":-0,"c":1e-400}'))).toBeNull();
  });
});
