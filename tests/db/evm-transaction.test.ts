import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { encodeFunctionData, keccak256, parseEther, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { chainClients, deployReverter, testContracts } from "../chain/contracts";
import { startHardhatNode } from "../chain/hardhat-node";
import { freePort, onFreePort } from "../server";

/**
 * The evm_transaction connector and its judgement against a real EVM: a hardhat node
 * started here with chain id 8453 stands in for `base`. The env is read once per process,
 * so every network's case is configured up front:
 * - base: the node; EVM_CONFIRMATIONS asks 3 confirmations there;
 * - polygon: the same node, which serves base's chain id, not polygon's (137);
 * - ethereum: a port nothing listens on (RPC down);
 * - arbitrum: a port that accepts connections and never answers (RPC timeout);
 * - optimism: no RPC at all.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-evmtx-"));
const node = await onFreePort((port) => startHardhatNode({ port, chainId: 8453, logFile: path.join(dir, "hardhat.log") }));
const held = new Set<net.Socket>();
const silent = net.createServer((socket) => held.add(socket)); // accepts, never answers
await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
const deadPort = await freePort();
const silentPort = (silent.address() as net.AddressInfo).port;
process.env.DATA_DIR = dir;
process.env.EVM_RPC_URLS = JSON.stringify({
  base: node.url, polygon: node.url, ethereum: `http://127.0.0.1:${deadPort}`, arbitrum: `http://127.0.0.1:${silentPort}`,
});
process.env.EVM_CONFIRMATIONS = JSON.stringify({ base: 3 });
process.env.RPC_TIMEOUT_MS = "3000";

const { lookupTransaction } = await import("@/lib/connectors/evm-transaction");
const { requiredConfirmations } = await import("@/lib/connectors/evm-confirmations");
const { judgeTransaction } = await import("@/lib/proofs/judge-transaction");

const chain = chainClients(node.url, node.chainId);
const sender = chain.walletClient.account.address;

afterAll(async () => {
  await node.stop();
  for (const socket of held) socket.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
  fs.rmSync(dir, { recursive: true, force: true });
});

const mine = (blocks: number) => chain.publicClient.request({ method: "hardhat_mine" as never, params: [`0x${blocks.toString(16)}`] as never });

async function transfer(wei: bigint) {
  const to = privateKeyToAccount(generatePrivateKey()).address;
  const hash = await chain.walletClient.sendTransaction({ to, value: wei });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  return { hash, to, receipt };
}

async function found(network: "base", hash: string) {
  const r = await lookupTransaction(network, hash);
  if (r.kind !== "found") throw new Error(`expected found, got ${JSON.stringify(r)}`);
  return r.value;
}

describe("lookupTransaction and judgeTransaction on a real chain", () => {
  it("a successful transfer is found with the chain's own facts and, confirmed, issues the public evidence", async () => {
    const { hash, to, receipt } = await transfer(123_456_789_012_345_678_901n);
    await mine(2);
    const tx = await found("base", hash);
    const block = await chain.publicClient.getBlock({ blockHash: receipt.blockHash });
    expect(tx).toEqual({
      network: "base", chain_id: 8453, tx_hash: hash, block_number: Number(receipt.blockNumber), block_hash: receipt.blockHash,
      block_time: new Date(Number(block.timestamp) * 1000).toISOString(), from: sender, to,
      value: "123456789012345678901", status: "success", confirmations: 3,
    });
    const judged = judgeTransaction(tx, { expected_from: sender, expected_to: to }, requiredConfirmations("base"));
    expect(judged.kind).toBe("issue");
    if (judged.kind !== "issue") return;
    expect(judged.evidenceLevel).toBe("source_verified");
    expect(Object.keys(judged.publicEvidence)).toEqual([
      "network", "chain_id", "tx_hash", "block_number", "block_hash", "block_time", "from", "to", "value", "confirmations", "explorer_url",
    ]);
    expect(judged.publicEvidence).toMatchObject({ value: "123456789012345678901", confirmations: 3, explorer_url: `https://basescan.org/tx/${hash}` });
  });

  it("a transaction short of its network's confirmations is not confirmed until enough blocks follow it", async () => {
    expect(requiredConfirmations("base")).toBe(3); // EVM_CONFIRMATIONS
    expect(requiredConfirmations("ethereum")).toBe(12); // the built-in default
    const { hash } = await transfer(1n);
    const first = judgeTransaction(await found("base", hash), {}, requiredConfirmations("base"));
    expect(first).toEqual({
      kind: "fail",
      error: { code: "transaction_not_confirmed", param: "evidence.tx_hash", message: `Transaction ${hash} on base has 1 of 3 confirmations; submit it again once it has 3.` },
    });
    await mine(1);
    const second = judgeTransaction(await found("base", hash), {}, requiredConfirmations("base"));
    expect(second.kind === "fail" && second.error.message).toMatch(/has 2 of 3 confirmations/);
    await mine(1);
    const third = judgeTransaction(await found("base", hash), {}, requiredConfirmations("base"));
    expect(third).toMatchObject({ kind: "issue", publicEvidence: { confirmations: 3 } });
  });

  it("a payment to a contract that reverts is found as reverted and refused however many confirmations it has", async () => {
    const reverter = await deployReverter(chain);
    const request = await chain.walletClient.prepareTransactionRequest({
      to: reverter, value: parseEther("1"),
      data: encodeFunctionData({ abi: testContracts().Reverter.abi, functionName: "pay" }),
      gas: 100_000n, // explicit: estimating the gas of a reverting call fails
    });
    const signed = await chain.walletClient.signTransaction(request);
    const hash = keccak256(signed);
    // Hardhat answers a reverting transaction with an error, yet mines it.
    await chain.publicClient.sendRawTransaction({ serializedTransaction: signed }).catch(() => undefined);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("reverted");
    await mine(5);
    const tx = await found("base", hash);
    expect(tx).toMatchObject({ status: "reverted", to: reverter, value: "1000000000000000000", confirmations: 6 });
    expect(judgeTransaction(tx, { expected_to: reverter }, 3)).toEqual({
      kind: "fail",
      error: { code: "transaction_reverted", param: "evidence.tx_hash", message: `Transaction ${hash} on base reverted in block ${tx.block_number}: it changed nothing and moved no value.` },
    });
  });

  it("expected_from and expected_to are compared without case, and a mismatch names the field", async () => {
    const { hash, to } = await transfer(5n);
    await mine(2);
    const tx = await found("base", hash);
    const other = privateKeyToAccount(generatePrivateKey()).address;
    expect(judgeTransaction(tx, { expected_from: sender.toLowerCase(), expected_to: to.toUpperCase().replace("0X", "0x") }, 3).kind).toBe("issue");
    expect(judgeTransaction(tx, { expected_from: other }, 3)).toEqual({
      kind: "fail",
      error: { code: "transaction_mismatch", param: "evidence.expected_from", message: `Transaction ${hash} on base was sent from ${sender}, not ${other}.` },
    });
    expect(judgeTransaction(tx, { expected_from: sender, expected_to: other }, 3)).toEqual({
      kind: "fail",
      error: { code: "transaction_mismatch", param: "evidence.expected_to", message: `Transaction ${hash} on base was sent to ${to}, not to ${other}.` },
    });
    // A mismatch is told before a shortfall of confirmations: waiting does not cure it.
    expect(judgeTransaction(tx, { expected_to: other }, 100)).toMatchObject({ error: { code: "transaction_mismatch" } });
  });

  it("a contract creation has no recipient: to is null and any expected_to mismatches", async () => {
    const deployed = await chain.walletClient.deployContract({ abi: testContracts().Reverter.abi, bytecode: testContracts().Reverter.bytecode });
    await chain.publicClient.waitForTransactionReceipt({ hash: deployed });
    await mine(2);
    const tx = await found("base", deployed);
    expect(tx).toMatchObject({ status: "success", to: null, value: "0" });
    expect(judgeTransaction(tx, { expected_to: sender }, 3)).toMatchObject({
      kind: "fail", error: { code: "transaction_mismatch", param: "evidence.expected_to", message: expect.stringMatching(/created a contract instead/) },
    });
  });

  it("an unknown or malformed hash is not found", async () => {
    const unknown = keccak256("0x00ff" as Hex);
    expect(await lookupTransaction("base", unknown)).toEqual({ kind: "not_found", reason: `The base network has no transaction ${unknown}.` });
    expect(await lookupTransaction("base", "0x1234")).toMatchObject({ kind: "not_found", reason: expect.stringMatching(/is not a transaction hash/) });
  });

  it("a transaction waiting in the node's pool is not found (pending) until it is mined", async () => {
    await chain.publicClient.request({ method: "evm_setAutomine" as never, params: [false] as never });
    try {
      const hash = await chain.walletClient.sendTransaction({ to: privateKeyToAccount(generatePrivateKey()).address, value: 7n });
      expect(await lookupTransaction("base", hash)).toEqual({
        kind: "not_found", reason: `Transaction ${hash} is pending on base: it is not in a block yet. Submit it again once it has been mined.`,
      });
      await mine(1);
      expect(await found("base", hash)).toMatchObject({ status: "success", value: "7", confirmations: 1 });
    } finally {
      await chain.publicClient.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
  });
});

describe("lookupTransaction when the source cannot answer", () => {
  const someHash = keccak256("0x01" as Hex);

  it("no RPC configured for the network → unreachable", async () => {
    expect(await lookupTransaction("optimism", someHash)).toEqual({
      kind: "unreachable", reason: "No RPC is configured for optimism (EVM_RPC_URLS), so the transaction cannot be looked up.",
    });
  });

  it("an RPC that is down → unreachable, without its URL in the reason", async () => {
    const r = await lookupTransaction("ethereum", someHash);
    expect(r).toMatchObject({ kind: "unreachable", reason: expect.stringMatching(/^The ethereum RPC did not answer \(\w+\)\.$/) });
    expect(JSON.stringify(r)).not.toContain(String(deadPort));
  });

  it("an RPC that accepts but never answers → unreachable once RPC_TIMEOUT_MS has passed", async () => {
    const started = Date.now();
    const r = await lookupTransaction("arbitrum", someHash);
    expect(r).toMatchObject({ kind: "unreachable", reason: expect.stringMatching(/^The arbitrum RPC did not answer \(\w+\)\.$/) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
  });

  it("an RPC serving another chain → unreachable, even for a transaction that chain has", async () => {
    const { hash } = await transfer(9n);
    expect(await found("base", hash)).toMatchObject({ tx_hash: hash });
    expect(await lookupTransaction("polygon", hash)).toEqual({
      kind: "unreachable", reason: "The RPC configured for polygon serves chain 8453, not polygon (137). It cannot be asked until that is fixed.",
    });
  });
});
