import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainClients } from "../chain/contracts";
import { startHardhatNode, type HardhatNode } from "../chain/hardhat-node";
import { freePort } from "../server";
import { dataLayerTest } from "./setup";

/**
 * An evm_transaction submitted while its network's RPC does not answer waits for review
 * (202); the reviewers' re-run asks again and issues it once the RPC answers. The RPC URL
 * the service knows is a switchable relay on loopback in front of a real hardhat node
 * (chain id 8453, as `base`): "down" answers 503, "up" relays every JSON-RPC call.
 */
const relayPort = await freePort();
const { dir, db, sandboxCustomer, reviewer: newReviewer } = await dataLayerTest({
  env: { EVM_RPC_URLS: JSON.stringify({ base: `http://127.0.0.1:${relayPort}` }), EVM_CONFIRMATIONS: JSON.stringify({ base: 1 }), RPC_TIMEOUT_MS: "3000" },
});
const { rowsOf } = await import("@/lib/db/client");
const { createRecord } = await import("@/lib/records/create-record");
const { decideSubmission, rerunAutomaticCheck } = await import("@/lib/reviews/decide-submission");
const { getSubmission } = await import("@/lib/reviews/review-queue");

let node: HardhatNode;
let up = false;
let relay: http.Server;

beforeAll(async () => {
  node = await startHardhatNode({ port: await freePort(), chainId: 8453, logFile: path.join(dir, "hardhat.log") });
  relay = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (!up) return res.writeHead(503).end("down");
      const answer = await fetch(node.url, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
  });
  await new Promise<void>((r) => relay.listen(relayPort, "127.0.0.1", r));
});
afterAll(async () => {
  await new Promise((r) => relay?.close(r));
  await node?.stop();
});

describe("evm_transaction re-run", () => {
  it("a submission made while the RPC was down waits, stays pending while it is down, and issues once it answers", async () => {
    const reviewer = await newReviewer();
    const { auth } = await sandboxCustomer({ tag: "c", confirmed: true });
    const chain = chainClients(node.url, node.chainId);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const hash = await chain.walletClient.sendTransaction({ to, value: parseEther("0.1") });
    await chain.publicClient.waitForTransactionReceipt({ hash });

    const res = await createRecord(db, auth, {
      subject: "Payment", claim_type: "evm_transaction", claim: "Paid 0.1 ETH.", evidence: { network: "base", tx_hash: hash, expected_to: to },
    }, randomUUID());
    expect(res.status, res.bodyJson).toBe(202);
    const body = JSON.parse(res.bodyJson);
    expect(body).toMatchObject({ status: "pending_review", review: { reason: expect.stringMatching(/base RPC did not answer/) } });
    const id = body.verification_id as string;
    expect((await getSubmission(db, id))!.canRerun).toBe(true);
    expect((await rerunAutomaticCheck(db, reviewer, id)).outcome).toBe("unreachable");

    up = true;
    const done = await rerunAutomaticCheck(db, reviewer, id);
    expect(done).toMatchObject({ outcome: "issued", record: { status: "active", evidence_level: "source_verified" } });
    const issued = (done as { record: { evidence: Record<string, unknown>; lifecycle: { recheck_at: string | null } } }).record;
    expect(issued.evidence).toMatchObject({ network: "base", chain_id: 8453, tx_hash: hash, to, value: parseEther("0.1").toString() });
    expect(issued.lifecycle.recheck_at).toBeNull();
    const audit = rowsOf(await db.execute(sql`select decision from review_decisions where record_id = ${id} order by seq`));
    expect(audit.map((r) => r.decision)).toEqual(["rerun_unchanged", "rerun_issued"]);
  });

  it("a payment made by an agent is issued only by the on-chain re-run, never by a reviewer's word, with its agent link read at the block time", async () => {
    up = false;
    const reviewer = await newReviewer();
    const { auth } = await sandboxCustomer({ tag: "c", confirmed: true });
    const agent = await createRecord(db, auth, {
      subject: "invoice-agent", claim_type: "agent_authorization", claim: "May pay invoices.", principal: "Acme", agent_id: "invoice-agent-9", act: "pay_invoices",
    }, randomUUID());
    expect(agent.status, agent.bodyJson).toBe(201);
    const agentId = JSON.parse(agent.bodyJson).verification_id as string;
    const issuedAt = Date.parse(JSON.parse(agent.bodyJson).lifecycle.history[0].at);
    const chain = chainClients(node.url, node.chainId);
    // The block's second comes after the issue (hardhat's own clock may lag the server's by up to a second).
    const latest = Number((await chain.publicClient.getBlock({ blockTag: "latest" })).timestamp);
    const second = Math.max(Math.floor(issuedAt / 1000), latest) + 1;
    await chain.publicClient.request({ method: "evm_setNextBlockTimestamp" as never, params: [second] as never });
    const hash = await chain.walletClient.sendTransaction({ to: privateKeyToAccount(generatePrivateKey()).address, value: parseEther("0.2") });
    await chain.publicClient.waitForTransactionReceipt({ hash });

    const res = await createRecord(db, auth, {
      subject: "Payment", claim_type: "evm_transaction", claim: "The agent paid.", evidence: { network: "base", tx_hash: hash, agent_record: agentId, act: "pay_invoices" },
    }, randomUUID());
    expect(res.status, res.bodyJson).toBe(202);
    const id = JSON.parse(res.bodyJson).verification_id as string;
    await expect(decideSubmission(db, reviewer, id, { decision: "approve", checklist: ["explorer_checked", "parties_match"] }))
      .rejects.toMatchObject({ code: "review_precondition_failed", message: expect.stringMatching(/checked on-chain/) });

    up = true;
    const done = await rerunAutomaticCheck(db, reviewer, id);
    expect(done.outcome).toBe("issued");
    const issued = (done as { record: Record<string, unknown> }).record;
    const link = { agent_record: agentId, agent_id: "invoice-agent-9", agent_status_at_payment: "active", act_match: true };
    expect(issued).toMatchObject({ status: "active", agent_link: link, evidence: { tx_hash: hash, act: "pay_invoices", agent_link: link } });
  });
});
