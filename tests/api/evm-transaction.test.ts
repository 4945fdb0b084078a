import { encodeFunctionData, keccak256, parseEther, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { chainClients, deployReverter, testContracts, type ChainClients } from "../chain/contracts";
import { baseUrl, call, newAccount } from "../helpers";
import { verifyWithJwks } from "../signatures";

/**
 * evm_transaction through the HTTP API against the suite's real hardhat node, which the
 * server knows as `base` (chain id 8453) with EVM_CONFIRMATIONS {"base": 2}; `bsc` has an
 * RPC that never answers. Statuses and certificates are checked with jose + canonicalize.
 */
const { network, url, chainId } = inject("evmChain");
let chain: ChainClients;
let key: string;

beforeAll(async () => {
  chain = chainClients(url, chainId);
  key = (await newAccount("evmtx")).sandboxKey;
});

const mine = (blocks: number) => chain.publicClient.request({ method: "hardhat_mine" as never, params: [`0x${blocks.toString(16)}`] as never });

async function transfer(to: Address, value = parseEther("0.25")): Promise<Hex> {
  const hash = await chain.walletClient.sendTransaction({ to, value });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

const record = (evidence: Record<string, unknown>) =>
  call("POST", "/api/v1/records", {
    key, body: { subject: "Payment to Globex", claim_type: "evm_transaction", claim: "Acme paid Globex 0.25 ETH.", visibility: "public", evidence },
  });

describe("evm_transaction records", () => {
  it("issues a confirmed, successful transfer at source_verified, with the chain's facts signed in status and certificate", async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await transfer(to);
    const early = await record({ network, tx_hash: hash });
    expect(early.status, early.text).toBe(422);
    expect(early.body.error).toMatchObject({ code: "transaction_not_confirmed", param: "evidence.tx_hash" });
    expect(early.body.error.message).toMatch(/has 1 of 2 confirmations/);

    await mine(1);
    const r = await record({ network, tx_hash: hash, expected_from: chain.walletClient.account.address.toLowerCase(), expected_to: to.toUpperCase().replace("0X", "0x") });
    expect(r.status, r.text).toBe(201);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(r.body).toMatchObject({ status: "active", evidence_level: "source_verified", claim_type: "evm_transaction" });
    expect(r.body.evidence).toMatchObject({
      network, chain_id: chainId, tx_hash: hash, block_number: Number(receipt.blockNumber), block_hash: receipt.blockHash,
      block_time: new Date(Number(block.timestamp) * 1000).toISOString(), from: chain.walletClient.account.address, to,
      value: parseEther("0.25").toString(), explorer_url: `https://basescan.org/tx/${hash}`,
    });
    expect(r.body.evidence.confirmations).toBeGreaterThanOrEqual(2);
    expect(r.body.lifecycle.recheck_at).toBeNull(); // a receipt is final

    const st = await call("GET", `/api/v1/records/${r.body.verification_id}/status`);
    expect(st.body).toMatchObject({ status: "active", verified: false, claim_type: "evm_transaction" }); // sandbox is never "verified"
    const { status_signature, ...signed } = st.body;
    expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
    const sig = await call("GET", `/api/v1/records/${r.body.verification_id}/signature`);
    expect(sig.body.signed_payload.evidence).toEqual(r.body.evidence);
    expect(await verifyWithJwks(sig.body.signed_payload, sig.body.signature, sig.body.signing_key_id)).toBe(true);

    const page = await (await fetch(`${baseUrl()}/r/${r.body.verification_id}`)).text();
    expect(page).toContain(`https://basescan.org/tx/${hash}`);
    expect(page).toContain("What this record does not prove");
  });

  it("refuses a reverted transaction, a mismatch, and an unknown hash, each with its code", async () => {
    const reverter = await deployReverter(chain);
    const request = await chain.walletClient.prepareTransactionRequest({
      to: reverter, value: 1n, gas: 100_000n, // explicit: estimating a reverting call fails
      data: encodeFunctionData({ abi: testContracts().Reverter.abi, functionName: "pay" }),
    });
    const signedTx = await chain.walletClient.signTransaction(request);
    const reverted = keccak256(signedTx);
    // Hardhat answers a reverting transaction with an error, yet mines it.
    await chain.publicClient.sendRawTransaction({ serializedTransaction: signedTx }).catch(() => undefined);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash: reverted })).status).toBe("reverted");
    await mine(2);
    expect((await record({ network, tx_hash: reverted })).body.error).toMatchObject({ code: "transaction_reverted", param: "evidence.tx_hash" });

    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await transfer(to);
    await mine(2);
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect((await record({ network, tx_hash: hash, expected_to: other })).body.error).toMatchObject({ code: "transaction_mismatch", param: "evidence.expected_to" });
    expect((await record({ network, tx_hash: hash, expected_from: other })).body.error).toMatchObject({ code: "transaction_mismatch", param: "evidence.expected_from" });

    const unknown = await record({ network, tx_hash: `0x${"ab".repeat(32)}` });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: "transaction_not_found", param: "evidence.tx_hash" });

    const list = await call("GET", "/api/v1/records?claim_type=evm_transaction&status=active", { key });
    expect(list.body.data.map((d: { evidence: { tx_hash: string } }) => d.evidence.tx_hash)).not.toContain(hash);
  });

  it("accepts the submission for review (202) when the network's RPC does not answer", async () => {
    const r = await record({ network: "bsc", tx_hash: `0x${"cd".repeat(32)}` });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ status: "pending_review", evidence_level: null, review: { evidence_level: "evidence_verified" } });
    expect(r.body.review.reason).toMatch(/bsc RPC did not answer/);
  });
});
