import { describe, expect, it } from "vitest";
import type { EvmTransaction } from "@/lib/connectors/evm-transaction";
import { explorerUrl, judgeTransaction } from "./judge-transaction";

// The facts a real lookup returns are tested against a hardhat node (tests/db/evm-transaction.test.ts);
// these are the edges a local chain cannot produce.
const tx: EvmTransaction = {
  network: "ethereum", chain_id: 1, tx_hash: `0x${"ab".repeat(32)}`, block_number: 4_000_000, block_hash: `0x${"cd".repeat(32)}`,
  block_time: "2017-07-01T00:00:00.000Z", from: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  value: "1", status: "success", confirmations: 12,
};

describe("judgeTransaction", () => {
  it("issues at exactly the required confirmations, and not one below", () => {
    expect(judgeTransaction(tx, {}, 12).kind).toBe("issue");
    expect(judgeTransaction(tx, {}, 13)).toMatchObject({ kind: "fail", error: { code: "transaction_not_confirmed", message: expect.stringMatching(/has 12 of 13 confirmations/) } });
  });

  it("does not issue a receipt without a status (before Byzantium, viem reports null)", () => {
    const old = { ...tx, status: null as unknown as EvmTransaction["status"] };
    expect(judgeTransaction(old, {}, 1)).toMatchObject({
      kind: "fail", error: { code: "transaction_reverted", param: "evidence.tx_hash", message: expect.stringMatching(/has no status in its receipt/) },
    });
  });

  it("links each network's explorer", () => {
    const hash = tx.tx_hash;
    expect((["ethereum", "base", "polygon", "arbitrum", "optimism", "bsc"] as const).map((n) => explorerUrl(n, hash))).toEqual([
      `https://etherscan.io/tx/${hash}`, `https://basescan.org/tx/${hash}`, `https://polygonscan.com/tx/${hash}`,
      `https://arbiscan.io/tx/${hash}`, `https://optimistic.etherscan.io/tx/${hash}`, `https://bscscan.com/tx/${hash}`,
    ]);
  });
});
