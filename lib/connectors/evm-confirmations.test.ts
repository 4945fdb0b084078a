import { afterEach, describe, expect, it, vi } from "vitest";

/** lib/env.ts parses once per module instance: each case loads fresh modules. */
async function withSetting(value: string | undefined) {
  vi.resetModules();
  if (value === undefined) delete process.env.EVM_CONFIRMATIONS;
  else process.env.EVM_CONFIRMATIONS = value;
  return import("./evm-confirmations");
}

afterEach(() => {
  delete process.env.EVM_CONFIRMATIONS;
});

describe("EVM_CONFIRMATIONS", () => {
  it("unset: every network has its built-in default", async () => {
    const { requiredConfirmations, DEFAULT_CONFIRMATIONS } = await withSetting(undefined);
    expect(DEFAULT_CONFIRMATIONS).toEqual({ ethereum: 12, base: 10, optimism: 10, arbitrum: 20, polygon: 128, bsc: 15 });
    for (const [network, n] of Object.entries(DEFAULT_CONFIRMATIONS)) {
      expect(requiredConfirmations(network as keyof typeof DEFAULT_CONFIRMATIONS)).toBe(n);
    }
  });

  it("overrides the networks it names and leaves the others at their defaults", async () => {
    const { requiredConfirmations } = await withSetting('{"base": 2, "polygon": 256}');
    expect([requiredConfirmations("base"), requiredConfirmations("polygon"), requiredConfirmations("ethereum")]).toEqual([2, 256, 12]);
  });

  it.each([
    ["not JSON", "base=2", /EVM_CONFIRMATIONS: must be JSON like \{"ethereum":12\}/],
    ["an unknown network", '{"eth": 2}', /EVM_CONFIRMATIONS: Unrecognized key: "eth"/],
    ["zero", '{"base": 0}', /EVM_CONFIRMATIONS\.base: Too small/],
    ["a fraction", '{"base": 1.5}', /EVM_CONFIRMATIONS\.base: Invalid input: expected int/],
    ["a string", '{"base": "2"}', /EVM_CONFIRMATIONS\.base: Invalid input: expected number/],
    ["an array", "[2]", /EVM_CONFIRMATIONS: Invalid input: expected record/],
  ])("refuses %s, naming the setting", async (_, value, message) => {
    const { requiredConfirmations } = await withSetting(value);
    expect(() => requiredConfirmations("base")).toThrow(message);
  });
});
