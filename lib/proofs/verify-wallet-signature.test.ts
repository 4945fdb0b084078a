import { ed25519 } from "@noble/curves/ed25519.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { verifyWalletSignature } from "./verify-wallet-signature";
import { normalizeAddress } from "./wallet-address";

/** The solana site of the strict Ed25519 check (finding 1 of docs/security.md). */
describe("solana wallet signatures are verified strictly", () => {
  const message = "Proof Records wants you to prove control of a wallet.\nNonce: 42";
  const forged = bs58.encode(Uint8Array.from([1, ...new Array(63).fill(0)]));

  it.each(["11111111111111111111111111111111", "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM"])(
    "the R = identity, S = 0 forgery for %s is a mismatch, and the address is refused",
    async (address) => {
      expect(ed25519.verify(bs58.decode(forged), new TextEncoder().encode(message), bs58.decode(address))).toBe(true); // lax default accepts
      expect(await verifyWalletSignature({ address, family: "solana" }, "solana", message, forged)).toEqual({ kind: "mismatch" });
      expect(normalizeAddress(address, "solana")).toMatchObject({ error: { code: "invalid_address", param: "address" } });
    },
  );

  it("a real signMessage signature is valid", async () => {
    const secret = ed25519.utils.randomSecretKey();
    const address = bs58.encode(ed25519.getPublicKey(secret));
    const sig = bs58.encode(ed25519.sign(new TextEncoder().encode(message), secret));
    expect(normalizeAddress(address, "solana")).toEqual({ address, family: "solana" });
    expect(await verifyWalletSignature({ address, family: "solana" }, "solana", message, sig)).toEqual({ kind: "valid", scheme: "ed25519" });
  });
});
