import { randomBytes } from "node:crypto";
import { hashMessage, isErc6492Signature, recoverMessageAddress, serializeErc6492Signature, toHex, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  chainClients, counterfactualWallet, deployOwnerWallet, deployWalletFactory, isValidSignatureOnChain, testContracts, type ChainClients,
} from "../chain/contracts";
import { call, newAccount } from "../helpers";

/**
 * Smart-account signatures (EIP-1271, EIP-6492) checked by the running server against a
 * real EVM: the hardhat node that tests/global-setup.ts starts and names as the server's
 * `base` RPC. The wallet is tests/chain/OwnerWallet.sol (valid when ecrecover(hash) is its owner).
 */
const MAGIC = "0x1626ba7e";
const { network, url, chainId } = inject("evmChain");
let chain: ChainClients;
let key: string;
let factory: Address;

beforeAll(async () => {
  chain = chainClients(url, chainId);
  // The node stands in for the network the server believes it is talking to.
  expect(await chain.publicClient.getChainId()).toBe(chainId);
  factory = await deployWalletFactory(chain);
  key = (await newAccount("smart")).sandboxKey;
});

async function challenge(address: string) {
  const r = await call("POST", "/api/v1/wallet-challenges", { key, body: { address, network } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; message: string; address: string };
}
const prove = (subject: string, challengeId: string, signature: string) =>
  call("POST", "/api/v1/records", {
    key, body: { subject, claim_type: "wallet_ownership", claim: `Controls ${subject}.`, evidence: { challenge_id: challengeId, signature } },
  });
const newOwner = () => privateKeyToAccount(generatePrivateKey());
const salt = () => toHex(randomBytes(32));

describe("wallet_ownership: EIP-1271 smart account on a hardhat chain", () => {
  it("issues for the owner's personal_sign signature; the wallet contract itself agrees", async () => {
    const owner = newOwner();
    const wallet = await deployOwnerWallet(chain, owner.address);
    expect(await chain.publicClient.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]{20,}$/);
    const c = await challenge(wallet.toLowerCase());
    expect(c.address).toBe(wallet);
    const signature = await owner.signMessage({ message: c.message });
    // Offline, the signature names the owner's key, not the account: only the chain can tie them.
    expect(await recoverMessageAddress({ message: c.message, signature })).toBe(owner.address);
    // The chain's own answer, asked directly: isValidSignature(EIP-191 hash of the message, signature).
    expect(await isValidSignatureOnChain(chain, wallet, hashMessage(c.message), signature)).toBe(MAGIC);

    const r = await prove(wallet, c.id, signature);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      status: "active",
      evidence_level: "source_verified",
      evidence: { address: wallet, network, message: c.message, signature, signature_scheme: "eip1271/6492" },
    });
  });

  it("refuses another key's signature and the owner's signature over another message (422), as the wallet does", async () => {
    const owner = newOwner();
    const wallet = await deployOwnerWallet(chain, owner.address);
    const c = await challenge(wallet);
    const byOther = await newOwner().signMessage({ message: c.message });
    expect(await isValidSignatureOnChain(chain, wallet, hashMessage(c.message), byOther)).toBe("0xffffffff");
    const r = await prove(wallet, c.id, byOther);
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code: "signature_mismatch", param: "evidence.signature" });

    const otherMessage = await owner.signMessage({ message: c.message + "\n" });
    expect(await isValidSignatureOnChain(chain, wallet, hashMessage(c.message), otherMessage)).toBe("0xffffffff");
    expect((await prove(wallet, c.id, otherMessage)).body.error.code).toBe("signature_mismatch");

    // Failed attempts do not use the challenge up.
    expect((await prove(wallet, c.id, await owner.signMessage({ message: c.message }))).status).toBe(201);
  });
});

describe("wallet_ownership: EIP-6492 counterfactual account on a hardhat chain", () => {
  it("issues for a wrapped signature of an account not deployed yet, deploys nothing, and the account agrees once deployed", async () => {
    const owner = newOwner();
    const s = salt();
    const cf = counterfactualWallet(factory, owner.address, s);
    expect(await chain.publicClient.getCode({ address: cf.address })).toBeUndefined();
    const c = await challenge(cf.address);
    const inner = await owner.signMessage({ message: c.message });
    const signature = serializeErc6492Signature({ address: cf.factory, data: cf.factoryData, signature: inner });
    expect(isErc6492Signature(signature)).toBe(true);
    expect(signature.endsWith("6492".repeat(16))).toBe(true);

    const r = await prove(cf.address, c.id, signature);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      evidence_level: "source_verified",
      evidence: { address: cf.address, network, signature, signature_scheme: "eip1271/6492" },
    });
    // The check ran the factory inside an eth_call only: still nothing at the address.
    expect(await chain.publicClient.getCode({ address: cf.address })).toBeUndefined();

    // Deploy it for real through the factory: it lands at the CREATE2 address computed
    // beforehand, and its isValidSignature accepts the inner signature.
    const { OwnerWalletFactory, OwnerWallet } = testContracts();
    const hash = await chain.walletClient.writeContract({ address: factory, abi: OwnerWalletFactory.abi, functionName: "deploy", args: [owner.address, s] });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await chain.publicClient.readContract({ address: cf.address, abi: OwnerWallet.abi, functionName: "owner" })).toBe(owner.address);
    expect(await isValidSignatureOnChain(chain, cf.address, hashMessage(c.message), inner)).toBe(MAGIC);
  });

  it("refuses a wrapped signature by another key, and a wrapper whose factory call deploys a different account", async () => {
    const owner = newOwner();
    const cf = counterfactualWallet(factory, owner.address, salt());
    const c = await challenge(cf.address);
    const byOther = serializeErc6492Signature({ address: cf.factory, data: cf.factoryData, signature: await newOwner().signMessage({ message: c.message }) });
    const r = await prove(cf.address, c.id, byOther);
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code: "signature_mismatch", param: "evidence.signature" });

    // The owner's signature, but the factory call creates the account at another salt.
    const elsewhere = counterfactualWallet(factory, owner.address, salt());
    expect(elsewhere.address).not.toBe(cf.address);
    const wrongFactoryCall = serializeErc6492Signature({
      address: factory, data: elsewhere.factoryData, signature: await owner.signMessage({ message: c.message }),
    });
    expect((await prove(cf.address, c.id, wrongFactoryCall)).body.error.code).toBe("signature_mismatch");

    // An unwrapped owner signature for the undeployed account cannot be checked: no code, no wrapper.
    expect((await prove(cf.address, c.id, await owner.signMessage({ message: c.message }))).body.error.code).toBe("signature_mismatch");

    // The chain was asked each time: the right wrapper still issues on the same challenge.
    const good = serializeErc6492Signature({ address: cf.factory, data: cf.factoryData, signature: await owner.signMessage({ message: c.message }) });
    expect((await prove(cf.address, c.id, good)).status).toBe(201);
  });

  it("does not ask an RPC that serves another chain than the network named: the submission goes to review", async () => {
    // tests/global-setup.ts names this same node (base's chain id) as the optimism RPC.
    const owner = newOwner();
    const wallet = await deployOwnerWallet(chain, owner.address);
    const r0 = await call("POST", "/api/v1/wallet-challenges", { key, body: { address: wallet, network: "optimism" } });
    expect(r0.status, r0.text).toBe(201);
    const signature = await owner.signMessage({ message: r0.body.message });
    // On the node the signature is valid; what is wrong is that this node is not optimism.
    expect(await isValidSignatureOnChain(chain, wallet, hashMessage(r0.body.message), signature)).toBe(MAGIC);
    const r = await prove(wallet, r0.body.id, signature);
    expect(r.status, r.text).toBe(202);
    expect(r.body.status).toBe("pending_review");
    expect(r.body.review.reason).toMatch(new RegExp(`serves chain ${chainId}, not optimism \\(10\\)`));
  });
});
