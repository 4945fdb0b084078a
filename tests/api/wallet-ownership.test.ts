import * as ecc from "@bitcoinerlab/secp256k1";
import { ed25519 } from "@noble/curves/ed25519.js";
import { Signer } from "bip322-js";
import * as bitcoin from "bitcoinjs-lib";
import bitcoinMessage from "bitcoinjs-message";
import bs58 from "bs58";
import { ECPairFactory } from "ecpair";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { call, newAccount } from "../helpers";

const ECPair = ECPairFactory(ecc);

async function challenge(key: string, address: string, network: string) {
  const r = await call("POST", "/api/v1/wallet-challenges", { key, body: { address, network } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}
const prove = (key: string, subject: string, challengeId: string, signature: string) =>
  call("POST", "/api/v1/records", {
    key, body: { subject, claim_type: "wallet_ownership", claim: `Controls ${subject}.`, evidence: { challenge_id: challengeId, signature } },
  });

function btcKey() {
  const kp = ECPair.makeRandom();
  const pubkey = Buffer.from(kp.publicKey);
  return {
    kp,
    priv: Buffer.from(kp.privateKey!),
    p2pkh: bitcoin.payments.p2pkh({ pubkey }).address!,
    p2shP2wpkh: bitcoin.payments.p2sh({ redeem: bitcoin.payments.p2wpkh({ pubkey }) }).address!,
    p2wpkh: bitcoin.payments.p2wpkh({ pubkey }).address!,
  };
}

describe("wallet challenges", () => {
  it("returns the exact message to sign, with service, address, network, nonce and validity", async () => {
    const { sandboxKey } = await newAccount();
    const acct = privateKeyToAccount(generatePrivateKey());
    const c = await challenge(sandboxKey, acct.address.toLowerCase(), "ethereum");
    expect(c).toMatchObject({ object: "wallet_challenge", address: acct.address, network: "ethereum", claim_type: "wallet_ownership" });
    expect(c.id).toMatch(/^wch_/);
    for (const part of [acct.address, "Network: ethereum", `Challenge ID: ${c.id}`, "Nonce: ", `Expiration Time: ${c.expires_at}`, "Issued At: ", "Proof Records"]) {
      expect(c.message).toContain(part);
    }
  });

  it.each([
    ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267", "ethereum", "invalid_address"], // mixed case, wrong EIP-55 checksum
    ["0x1234", "base", "invalid_address"],
    ["bc1pss0zhytly75awhm6x2hhvd5lnzv3vssgrf9axfheq8ldyzn88ges79fler", "bitcoin", "unsupported_address_type"],
    ["1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAt", "bitcoin", "invalid_address"], // checksum
    ["tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "bitcoin", "invalid_address"], // testnet
    ["0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "solana", "invalid_address"],
    ["4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4", "solana", "invalid_address"], // 31 bytes
    // Weak keys: a forged R = identity, S = 0 signature verified for them under ZIP-215 (docs/security.md, finding 1)
    ["11111111111111111111111111111111", "solana", "invalid_address"], // y = 0, a point of order 4
    ["4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM", "solana", "invalid_address"], // the identity point
  ])("refuses %s on %s (%s)", async (address, network, code) => {
    const { sandboxKey } = await newAccount();
    const r = await call("POST", "/api/v1/wallet-challenges", { key: sandboxKey, body: { address, network } });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code, param: "address" });
    if (code === "unsupported_address_type") expect(r.body.error.message).toMatch(/Taproot/);
  });

  it("refuses an unknown network", async () => {
    const { sandboxKey } = await newAccount();
    const r = await call("POST", "/api/v1/wallet-challenges", { key: sandboxKey, body: { address: "0x0", network: "dogecoin" } });
    expect(r.body.error).toMatchObject({ code: "invalid_value", param: "network" });
  });
});

describe("wallet_ownership: EVM (viem local accounts)", () => {
  it("issues with a personal_sign signature; the subject may differ in case; one signature is valid on any EVM network", async () => {
    const { sandboxKey } = await newAccount();
    const acct = privateKeyToAccount(generatePrivateKey());
    for (const network of ["ethereum", "base"]) {
      const c = await challenge(sandboxKey, acct.address, network);
      const signature = await acct.signMessage({ message: c.message });
      const r = await prove(sandboxKey, acct.address.toLowerCase(), c.id, signature);
      expect(r.status, r.text).toBe(201);
      expect(r.body).toMatchObject({
        evidence_level: "source_verified",
        evidence: { address: acct.address, network, message: c.message, signature, signature_scheme: "eip191" },
      });
      const page = await call("GET", `/r/${r.body.verification_id}`);
      expect(page.text).toContain("Control of the key behind the");
      expect(page.text).toContain("Who holds the key (identity)");
    }
  });

  it("refuses another key's signature, a tampered message, a malformed signature and a replayed challenge", async () => {
    const { sandboxKey } = await newAccount();
    const acct = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const c = await challenge(sandboxKey, acct.address, "ethereum");
    const byOther = await prove(sandboxKey, acct.address, c.id, await other.signMessage({ message: c.message }));
    expect(byOther.body.error).toMatchObject({ code: "signature_mismatch", param: "evidence.signature" });
    const tampered = await prove(sandboxKey, acct.address, c.id, await acct.signMessage({ message: c.message + " " }));
    expect(tampered.body.error.code).toBe("signature_mismatch");
    const junk = await prove(sandboxKey, acct.address, c.id, "0xdeadbeef");
    expect(junk.body.error).toMatchObject({ code: "invalid_signature", param: "evidence.signature" });
    const mismatch = await prove(sandboxKey, other.address, c.id, await acct.signMessage({ message: c.message }));
    expect(mismatch.body.error).toMatchObject({ code: "subject_mismatch" });
    const good = await acct.signMessage({ message: c.message });
    expect((await prove(sandboxKey, acct.address, c.id, good)).status).toBe(201);
    const replay = await prove(sandboxKey, acct.address, c.id, good);
    expect(replay.body.error.code).toBe("challenge_used");
  });
});

describe("wallet_ownership: EVM smart accounts", () => {
  it("asks the network's RPC when the signature is not the address's own key, and goes to review when it cannot answer", async () => {
    const { sandboxKey } = await newAccount();
    const acct = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const c = await challenge(sandboxKey, acct.address, "bsc");
    // Not the EOA's signature: it could be a smart account's (EIP-1271/6492), which only the chain can tell.
    const r = await prove(sandboxKey, acct.address, c.id, await other.signMessage({ message: c.message }));
    expect(r.status, r.text).toBe(202);
    expect(r.body.status).toBe("pending_review");
    expect(r.body.review.reason).toMatch(/bsc RPC did not answer/);
    // Without an RPC for the network the same case is simply a mismatch.
    const c2 = await challenge(sandboxKey, acct.address, "polygon");
    const r2 = await prove(sandboxKey, acct.address, c2.id, await other.signMessage({ message: c2.message }));
    expect(r2.body.error.code).toBe("signature_mismatch");
  });
});

describe("wallet_ownership: bitcoin", () => {
  it("verifies BIP-137 signatures for 1…, 3… and bc1q… addresses (bitcoinjs-message)", async () => {
    const { sandboxKey } = await newAccount();
    const k = btcKey();
    const kinds = [
      [k.p2pkh, undefined],
      [k.p2shP2wpkh, "p2sh(p2wpkh)"],
      [k.p2wpkh, "p2wpkh"],
    ] as const;
    for (const [address, segwitType] of kinds) {
      const c = await challenge(sandboxKey, address, "bitcoin");
      const sig = bitcoinMessage.sign(c.message, k.priv, true, segwitType ? { segwitType } : undefined).toString("base64");
      const r = await prove(sandboxKey, address, c.id, sig);
      expect(r.status, `${address}: ${r.text}`).toBe(201);
      expect(r.body.evidence.signature_scheme).toBe("bip137");
    }
  });

  it("verifies BIP-322 simple signatures for bc1q… (bip322-js), with or without the smp prefix", async () => {
    const { sandboxKey } = await newAccount();
    const k = btcKey();
    for (const prefix of ["", "smp"]) {
      const c = await challenge(sandboxKey, k.p2wpkh.toUpperCase(), "bitcoin");
      expect(c.address).toBe(k.p2wpkh);
      const sig = Signer.sign(k.kp.toWIF(), k.p2wpkh, c.message).toString();
      const r = await prove(sandboxKey, k.p2wpkh, c.id, prefix + sig);
      expect(r.status, r.text).toBe(201);
      expect(r.body.evidence.signature_scheme).toBe("bip322-simple");
    }
  });

  it("refuses a signature by another key or over another message", async () => {
    const { sandboxKey } = await newAccount();
    const k = btcKey();
    const other = btcKey();
    const c = await challenge(sandboxKey, k.p2pkh, "bitcoin");
    const wrongKey = bitcoinMessage.sign(c.message, other.priv, true).toString("base64");
    expect((await prove(sandboxKey, k.p2pkh, c.id, wrongKey)).body.error.code).toBe("signature_mismatch");
    const wrongMsg = bitcoinMessage.sign(c.message + "!", k.priv, true).toString("base64");
    expect((await prove(sandboxKey, k.p2pkh, c.id, wrongMsg)).body.error.code).toBe("signature_mismatch");
    expect((await prove(sandboxKey, k.p2pkh, c.id, "not base64!")).body.error.code).toBe("invalid_signature");
  });
});

describe("wallet_ownership: solana (@noble/curves ed25519)", () => {
  it("accepts signMessage signatures in base58 and base64, and refuses another key's", async () => {
    const { sandboxKey } = await newAccount();
    const secret = ed25519.utils.randomSecretKey();
    const address = bs58.encode(ed25519.getPublicKey(secret));
    for (const encode of [(s: Uint8Array) => bs58.encode(s), (s: Uint8Array) => Buffer.from(s).toString("base64")]) {
      const c = await challenge(sandboxKey, address, "solana");
      const sig = ed25519.sign(new TextEncoder().encode(c.message), secret);
      const r = await prove(sandboxKey, address, c.id, encode(sig));
      expect(r.status, r.text).toBe(201);
      expect(r.body.evidence.signature_scheme).toBe("ed25519");
    }
    const c = await challenge(sandboxKey, address, "solana");
    const otherSig = ed25519.sign(new TextEncoder().encode(c.message), ed25519.utils.randomSecretKey());
    expect((await prove(sandboxKey, address, c.id, bs58.encode(otherSig))).body.error.code).toBe("signature_mismatch");
    expect((await prove(sandboxKey, address, c.id, "abc")).body.error.code).toBe("invalid_signature");
  });

  it.each(["11111111111111111111111111111111", "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM"])(
    "issues nothing for the forged R = identity, S = 0 proof of the weak address %s",
    async (address) => {
      const { sandboxKey } = await newAccount();
      const c = await call("POST", "/api/v1/wallet-challenges", { key: sandboxKey, body: { address, network: "solana" } });
      expect(c.status, c.text).toBe(422);
      expect(c.body.error).toMatchObject({ code: "invalid_address", param: "address" });
      expect(c.body.error.message).toMatch(/cannot sign/);
      const forged = bs58.encode(Uint8Array.from([1, ...new Array(63).fill(0)]));
      const r = await prove(sandboxKey, address, c.body.id ?? "wch_00000000000000000000", forged);
      expect(r.status, r.text).toBe(422);
      const list = await call("GET", "/api/v1/records?claim_type=wallet_ownership", { key: sandboxKey });
      expect(list.body.data).toEqual([]);
    },
  );
});
