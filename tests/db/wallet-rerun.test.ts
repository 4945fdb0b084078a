import path from "node:path";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { getContractAddress, hashMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { chainClients, deployOwnerWallet, isValidSignatureOnChain } from "../chain/contracts";
import { HARDHAT_KEY_0, startHardhatNode, type HardhatNode } from "../chain/hardhat-node";
import { freePort } from "../server";
import { dataLayerTest } from "./setup";

/**
 * A smart-account submission made while the network's RPC is down goes to review; a
 * reviewer's re-run asks the chain again. The env (and so EVM_RPC_URLS) is read once per
 * process, so the URL stays the same throughout: first nothing listens on its port, then a
 * hardhat node (chain id 1, standing in for `ethereum`) is started on that very port.
 */
const rpcPort = await freePort();
const { dir, db, sandboxCustomer, reviewer: newReviewer } = await dataLayerTest({
  env: { EVM_RPC_URLS: JSON.stringify({ ethereum: `http://127.0.0.1:${rpcPort}` }), RPC_TIMEOUT_MS: "3000" },
});
const { rowsOf } = await import("@/lib/db/client");
const { createRecord } = await import("@/lib/records/create-record");
const { getPublicRecord } = await import("@/lib/record-model/get-record");
const { createWalletChallenge } = await import("@/lib/challenges/challenges");
const { rerunAutomaticCheck } = await import("@/lib/reviews/decide-submission");
const { getSubmission } = await import("@/lib/reviews/review-queue");

let node: HardhatNode | undefined;
afterAll(async () => {
  await node?.stop();
});

describe("wallet_ownership re-run against a real chain", () => {
  it("an EIP-1271 submission made while the RPC was down stays pending, fails while the account has no code, and issues once it is deployed", async () => {
    const reviewer = await newReviewer();
    const { auth } = await sandboxCustomer({ tag: "c", confirmed: true });

    // The account will be the first contract hardhat's account #0 deploys on a fresh node.
    const wallet = getContractAddress({ from: privateKeyToAccount(HARDHAT_KEY_0).address, nonce: 0n });
    const owner = privateKeyToAccount(generatePrivateKey());
    const ch = await createWalletChallenge(db, auth, { address: wallet, network: "ethereum" });
    const signature = await owner.signMessage({ message: ch.message });

    const res = await createRecord(db, auth, {
      subject: wallet, claim_type: "wallet_ownership", claim: `Controls ${wallet}.`, evidence: { challenge_id: ch.id, signature },
    }, randomUUID());
    expect(res.status, res.bodyJson).toBe(202);
    const body = JSON.parse(res.bodyJson);
    expect(body).toMatchObject({ status: "pending_review", review: { reason: expect.stringMatching(/ethereum RPC did not answer/) } });
    const id = body.verification_id as string;
    expect((await getSubmission(db, id))!.canRerun).toBe(true);

    expect((await rerunAutomaticCheck(db, reviewer, id)).outcome).toBe("unreachable");

    // The RPC comes back: a real EVM on the configured port.
    node = await startHardhatNode({ port: rpcPort, chainId: 1, logFile: path.join(dir, "hardhat.log") });
    const chain = chainClients(node.url, node.chainId);
    const failed = await rerunAutomaticCheck(db, reviewer, id);
    expect(failed.outcome).toBe("failed"); // the chain answers: no code there, and no EIP-6492 wrapper
    expect((await getSubmission(db, id))!.row).toMatchObject({ status: "pending_review", reviewReason: expect.stringMatching(/did not confirm/) });

    expect(await deployOwnerWallet(chain, owner.address)).toBe(wallet);
    expect(await isValidSignatureOnChain(chain, wallet, hashMessage(ch.message), signature)).toBe("0x1626ba7e");
    const done = await rerunAutomaticCheck(db, reviewer, id);
    expect(done).toMatchObject({ outcome: "issued", record: { status: "active", evidence_level: "source_verified" } });
    const row = (await getPublicRecord(db, id))!;
    expect(row.evidencePublic).toMatchObject({ address: wallet, network: "ethereum", signature, signature_scheme: "eip1271/6492" });
    const audit = rowsOf(await db.execute(sql`select decision from review_decisions where record_id = ${id} order by seq`));
    expect(audit.map((r) => r.decision)).toEqual(["rerun_unchanged", "rerun_failed", "rerun_issued"]);
  });
});
