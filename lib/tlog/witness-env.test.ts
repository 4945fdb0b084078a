import { generateKeyPairSync, createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";

/*
 * LOG_WITNESSES and LOG_WITNESS_QUORUM are checked at start (lib/env.ts): a bad setting is an
 * "Invalid environment" naming it, never a log that silently publishes unwitnessed trees.
 */
function vkey(name: string, type = 0x04, idOf = name) {
  const pub = Buffer.from(generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x!, "base64url");
  const id = createHash("sha256").update(`${idOf}\n`).update(Buffer.from([type])).update(pub).digest().subarray(0, 4).toString("hex");
  return `${name}+${id}+${Buffer.concat([Buffer.from([type]), pub]).toString("base64")}`;
}
const witness = (name: string, over: Record<string, unknown> = {}) => ({ name, vkey: vkey(name), url: `https://${name}`, ...over });

async function envWith(vars: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
  const { getEnv } = await import("@/lib/env");
  return getEnv;
}

afterEach(() => vi.unstubAllEnvs());

describe("LOG_WITNESSES", () => {
  it("unset: no witnesses, no quorum", async () => {
    const env = (await envWith({ LOG_WITNESSES: undefined, LOG_WITNESS_QUORUM: undefined }))();
    expect(env.LOG_WITNESSES).toBeUndefined();
    const { witnessQuorum, witnesses } = await import("./published");
    expect(witnesses()).toEqual([]);
    expect(witnessQuorum()).toBe(0);
  });

  it("a valid list; the quorum defaults to all of them", async () => {
    await envWith({ LOG_WITNESSES: JSON.stringify([witness("w.example/1"), witness("w.example/2", { url: "http://127.0.0.1:9/x/" })]), LOG_WITNESS_QUORUM: undefined });
    const { witnessQuorum, witnesses } = await import("./published");
    expect(witnesses().map((w) => [w.name, w.url])).toEqual([["w.example/1", "https://w.example/1"], ["w.example/2", "http://127.0.0.1:9/x"]]);
    expect(witnessQuorum()).toBe(2);
  });

  const refused: [string, Record<string, string>, RegExp][] = [
    ["not JSON", { LOG_WITNESSES: "[{name:" }, /LOG_WITNESSES: must be JSON like/],
    ["a note key (0x01), not a witness key", { LOG_WITNESSES: JSON.stringify([{ name: "w.example/1", vkey: vkey("w.example/1", 0x01), url: "https://w" }]) }, /LOG_WITNESSES\.0\.vkey: is not an Ed25519 cosignature key \(type 0x04/],
    ["a wrong key ID", { LOG_WITNESSES: JSON.stringify([{ name: "w.example/1", vkey: vkey("w.example/1", 0x04, "other"), url: "https://w" }]) }, /LOG_WITNESSES\.0\.vkey: has key ID [0-9a-f]{8}, but the key gives/],
    ["a vkey of another name", { LOG_WITNESSES: JSON.stringify([{ ...witness("w.example/1"), name: "w.example/2" }]) }, /LOG_WITNESSES\.0\.vkey: names "w\.example\/1", not the witness's name "w\.example\/2"/],
    ["a name twice", { LOG_WITNESSES: JSON.stringify([witness("w.example/1"), witness("w.example/1")]) }, /LOG_WITNESSES\.1\.name: "w\.example\/1" is listed twice/],
    ["a URL that is not http(s)", { LOG_WITNESSES: JSON.stringify([witness("w.example/1", { url: "ftp://w" })]) }, /LOG_WITNESSES\.0\.url: must be an http\(s\) URL/],
    ["a quorum above the list", { LOG_WITNESSES: JSON.stringify([witness("w.example/1")]), LOG_WITNESS_QUORUM: "2" }, /LOG_WITNESS_QUORUM: is 2, but LOG_WITNESSES lists 1 witness/],
    ["a quorum without witnesses", { LOG_WITNESS_QUORUM: "1" }, /LOG_WITNESS_QUORUM: is 1, but LOG_WITNESSES lists 0 witnesses/],
    ["a quorum of 0", { LOG_WITNESSES: JSON.stringify([witness("w.example/1")]), LOG_WITNESS_QUORUM: "0" }, /LOG_WITNESS_QUORUM/],
  ];
  for (const [what, vars, message] of refused) {
    it(`refuses ${what}`, async () => {
      const getEnv = await envWith({ LOG_WITNESSES: undefined, LOG_WITNESS_QUORUM: undefined, ...vars });
      expect(() => getEnv()).toThrow(message);
    });
  }
});
