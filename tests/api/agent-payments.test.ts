import { randomUUID } from "node:crypto";
import { parseEther, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { chainClients, type ChainClients } from "../chain/contracts";
import { HARDHAT_KEY_0 } from "../chain/hardhat-node";
import { baseUrl, call, companyStatus, newAccount, newLiveAccount, untilPast } from "../helpers";
import { verifyWithJwks } from "../signatures";

/**
 * Payments made by an agent (CONTRACT "Payments made by an agent", spec 2.4) and the agent's
 * spend ledger, through the HTTP API on the suite's hardhat node (`base`, two confirmations).
 * Each transfer is mined in a block whose timestamp the test sets (evm_setNextBlockTimestamp)
 * to the first second after the agent's last lifecycle change — history times are the
 * server's clock — and the next change waits until that second has passed, so every block
 * lies between two known entries of the agent's history. Statuses are checked with jose +
 * canonicalize.
 */
const { network, url, chainId } = inject("evmChain");
let chain: ChainClients;
const payee: Address = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(() => {
  chain = chainClients(url, chainId);
});

const rpc = (method: string, params: unknown[]) => chain.publicClient.request({ method: method as never, params: params as never });
const mine = (blocks: number) => rpc("hardhat_mine", [`0x${blocks.toString(16)}`]);
// time under test: block times are whole seconds, so the test waits for the clock to pass a given instant.
const sleepUntil = (ms: number) => untilPast(new Date(ms).toISOString(), 0);

/**
 * A transfer mined in a block stamped with the first whole second after `afterMs` (and after
 * the chain's latest block); resolves once the clock has passed that second, so what the test
 * does next happens after the block.
 */
async function transferAfter(afterMs: number, value = parseEther("0.01")): Promise<{ hash: Hex; blockTime: string }> {
  const latest = Number((await chain.publicClient.getBlock({ blockTag: "latest" })).timestamp);
  const second = Math.max(Math.floor(afterMs / 1000), latest) + 1;
  await rpc("evm_setNextBlockTimestamp", [second]);
  const hash = await chain.walletClient.sendTransaction({ to: payee, value });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(Number((await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp)).toBe(second);
  await sleepUntil(second * 1000 + 100);
  return { hash, blockTime: new Date(second * 1000).toISOString() };
}

/** The wallet every transfer here is sent from (hardhat's funded account #0). */
const sender = privateKeyToAccount(HARDHAT_KEY_0);

/** A wallet_ownership record of the account for `wallet` (signed here with its key): an agent may name it among its agent_wallets. */
async function walletRecord(key: string, wallet: { address: Address; signMessage: (a: { message: string }) => Promise<Hex> } = sender) {
  const c = await call("POST", "/api/v1/wallet-challenges", { key, body: { address: wallet.address, network: "ethereum" } });
  expect(c.status, c.text).toBe(201);
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: wallet.address, claim_type: "wallet_ownership", claim: "Controls the wallet.", visibility: "public", evidence: { challenge_id: c.body.id, signature: await wallet.signMessage({ message: c.body.message }) } },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.verification_id as string;
}

const agentBody = (over: Record<string, unknown> = {}) => ({
  subject: "invoice-agent", claim_type: "agent_authorization", claim: "invoice-agent may pay approved invoices.",
  principal: "Acme Trading Ltd", agent_id: `agent-${randomUUID().slice(0, 8)}`, act: "pay_invoices",
  scope: { asset: "ETH", max_amount: "1.5", network: "base" }, ...over,
});

async function newAgent(key: string, over: Record<string, unknown> = {}) {
  const r = await call("POST", "/api/v1/records", { key, body: agentBody(over) });
  expect(r.status, r.text).toBe(201);
  return { id: r.body.verification_id as string, agentId: r.body.evidence.agent_id as string, issuedAt: Date.parse(r.body.lifecycle.history[0].at) };
}

/** A lifecycle move; resolves with the time of the history entry it wrote. */
async function move(key: string, id: string, operation: string, extra: Record<string, unknown> = {}) {
  const r = await call("POST", `/api/v1/records/${id}/lifecycle`, { key, body: { operation, reason: `The agent is ${operation}d for the test.`, ...extra } });
  expect(r.status, r.text).toBe(200);
  return Date.parse(r.body.lifecycle.history.at(-1).at);
}

const pay = (key: string, evidence: Record<string, unknown>) =>
  call("POST", "/api/v1/records", {
    key, body: { subject: "Invoice 2026-114", claim_type: "evm_transaction", claim: "The agent paid invoice 2026-114.", visibility: "public", evidence: { network, ...evidence } },
  });

async function verifiedStatus(id: string, query = "") {
  const r = await call("GET", `/api/v1/records/${id}/status${query}`);
  expect(r.status, r.text).toBe(200);
  const { status_signature, ...signed } = r.body;
  expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
  return signed;
}

/** The certificate's HTML, without React's text separators and with apostrophes as written. */
const page = async (id: string) => (await (await fetch(`${baseUrl()}/r/${id}`)).text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");

describe("payments made by an agent", () => {
  it("stores the agent's status at the block's time — not_yet_issued, active, suspended, revoked, expired, superseded — and act_match, signed", async () => {
    const { sandboxKey: key } = await newAccount("agentpay");
    const before = await transferAfter(Date.now());
    const a = await newAgent(key);
    const whileActive = await transferAfter(a.issuedAt);
    const whileSuspended = await transferAfter(await move(key, a.id, "suspend"));
    const afterRevoke = await transferAfter(await move(key, a.id, "revoke"));

    const shortLived = await newAgent(key, { valid_until: new Date(Date.now() + 2500).toISOString() });
    const expiresAt = Date.parse((await call("GET", `/api/v1/records/${shortLived.id}`, { key })).body.lifecycle.expires_at);
    const afterExpiry = await transferAfter(expiresAt);

    const old = await newAgent(key);
    const successor = await newAgent(key);
    const afterSupersede = await transferAfter(await move(key, old.id, "supersede", { superseded_by: successor.id }));
    await mine(1); // the last transfer's second confirmation

    const cases = [
      { tx: before, agent: a, act: "pay_invoices", then: "not_yet_issued", match: true },
      { tx: whileActive, agent: a, act: "pay_invoices", then: "active", match: true },
      { tx: whileSuspended, agent: a, act: "buy_gift_cards", then: "suspended", match: false },
      { tx: afterRevoke, agent: a, act: undefined, then: "revoked", match: "unknown" },
      { tx: afterExpiry, agent: shortLived, act: "pay_invoices", then: "expired", match: true },
      { tx: afterSupersede, agent: old, act: undefined, then: "superseded", match: "unknown" },
    ] as const;
    for (const c of cases) {
      const r = await pay(key, { tx_hash: c.tx.hash, agent_record: c.agent.id, ...(c.act && { act: c.act }) });
      expect(r.status, `${c.then}: ${r.text}`).toBe(201);
      // The agent names no wallets: each payment only cites it.
      const link = { agent_record: c.agent.id, agent_id: c.agent.agentId, agent_status_at_payment: c.then, act_match: c.match, attribution: "cited" };
      expect(r.body.evidence).toMatchObject({ tx_hash: c.tx.hash, block_time: c.tx.blockTime, agent_link: link });
      expect(r.body.evidence.act).toBe(c.act);
      expect(r.body.agent_link).toEqual(link);
      // The payment rests on the agent record; its link shows the agent's standing now, beside the stored status then.
      expect(r.body.links).toEqual([expect.objectContaining({ role: "agent_record", verification_id: c.agent.id })]);

      const st = await verifiedStatus(r.body.verification_id);
      expect(st.agent_link, c.then).toEqual(link);
      // Signed with the record too: the record signature's payload carries the same link.
      const sig = await call("GET", `/api/v1/records/${r.body.verification_id}/signature`);
      expect(sig.body.signed_payload.evidence.agent_link).toEqual(link);
      expect(await verifyWithJwks(sig.body.signed_payload, sig.body.signature, sig.body.signing_key_id)).toBe(true);
    }

    // Historical: the agent, revoked now, still reads as it was at each payment.
    expect((await verifiedStatus(a.id)).status).toBe("revoked");
    const ids = (await call("GET", "/api/v1/records?claim_type=evm_transaction", { key })).body.data as { agent_link: { agent_status_at_payment: string } | null }[];
    expect(ids.map((d) => d.agent_link?.agent_status_at_payment).sort()).toEqual(["active", "expired", "not_yet_issued", "revoked", "superseded", "suspended"]);
  }, 120_000);

  it("the certificate says plainly what the agent's status was at the payment, and that amounts are not checked", async () => {
    const { sandboxKey: key } = await newAccount("agentpay-cert");
    const a = await newAgent(key);
    await sleepUntil(a.issuedAt + 1000);
    const suspendedAt = await move(key, a.id, "suspend");
    const tx = await transferAfter(suspendedAt);
    await mine(1);
    const r = await pay(key, { tx_hash: tx.hash, agent_record: a.id, act: "pay_invoices" });
    expect(r.status, r.text).toBe(201);
    const html = await page(r.body.verification_id);
    expect(html).toContain('data-agent-status="suspended"');
    expect(html).toContain("the agent was not authorized at that moment");
    expect(html).toContain(a.agentId);
    expect(html).toContain(`href="/r/${a.id}"`);
    expect(html).toMatch(/is the one the authorization names/);
    expect(html).toMatch(/amounts are never checked against it/);
  }, 60_000);

  it("refuses an agent record of another account, of the other environment, a record that is not an agent's, a pending and an unknown one (422 agent_record_invalid)", async () => {
    const { sandboxKey: key } = await newAccount("agentpay-refusals");
    const other = await newAccount("agentpay-other");
    const live = await newLiveAccount();
    const tx = await transferAfter(Date.now());
    await mine(1);
    const theirs = await newAgent(other.sandboxKey);
    const statement = (await call("POST", "/api/v1/records", { key, body: companyStatus() })).body.verification_id as string;
    const pending = await call("POST", "/api/v1/records", {
      key, body: { subject: "Acme", claim_type: "press_coverage", claim: "Acme was covered.", source_name: "Example Times", source_url: "https://times.example/acme", checked_at: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(pending.status, pending.text).toBe(202);
    const sandboxAgentOfLive = await newAgent(live.sandboxKey);
    const liveAgent = await newAgent(live.liveKey);

    const refusals: [string, string, RegExp][] = [
      [key, theirs.id, /No record of this account has that id/],
      [key, `PRS-${"0".repeat(20)}`, /No record of this account has that id/],
      [key, statement, /must be an agent_authorization record, not company_status/],
      [key, pending.body.verification_id, /must be an agent_authorization record, not press_coverage/],
      [live.liveKey, sandboxAgentOfLive.id, /A live payment must cite a live agent record; this one is sandbox/],
      [live.sandboxKey, liveAgent.id, /A sandbox payment must cite a sandbox agent record; this one is live/],
    ];
    for (const [k, agentRecord, message] of refusals) {
      const r = await pay(k, { tx_hash: tx.hash, agent_record: agentRecord, act: "pay_invoices" });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ type: "invalid_request_error", code: "agent_record_invalid", param: "evidence.agent_record" });
      expect(r.body.error.message).toMatch(message);
    }
    const actAlone = await pay(key, { tx_hash: tx.hash, act: "pay_invoices" });
    expect(actAlone.status).toBe(422);
    expect(actAlone.body.error).toMatchObject({ code: "missing_field", param: "evidence.agent_record" });

    // Sandbox → sandbox and live → live are accepted.
    expect((await pay(live.sandboxKey, { tx_hash: tx.hash, agent_record: sandboxAgentOfLive.id })).status).toBe(201);
    const livePayment = await pay(live.liveKey, { tx_hash: tx.hash, agent_record: liveAgent.id });
    expect(livePayment.status, livePayment.text).toBe(201);
    expect(livePayment.body.agent_link).toMatchObject({ agent_record: liveAgent.id, agent_status_at_payment: "not_yet_issued", act_match: "unknown" });
  }, 60_000);

  it("a payment whose network does not answer waits for review with the agent named, and no agent_link yet", async () => {
    const { sandboxKey: key } = await newAccount("agentpay-pending");
    const a = await newAgent(key);
    const r = await call("POST", "/api/v1/records", {
      key, body: { subject: "Invoice", claim_type: "evm_transaction", claim: "Paid.", evidence: { network: "bsc", tx_hash: `0x${"ef".repeat(32)}`, agent_record: a.id, act: "pay_invoices" } },
    });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ status: "pending_review", agent_link: null, evidence: { agent_record: a.id, act: "pay_invoices" } });
    expect(r.body.links).toEqual([expect.objectContaining({ role: "agent_record", verification_id: a.id })]);
  });
});

describe("the agent's spend ledger", () => {
  it("counts the issued payments from the agent's wallets and sums their value per network, in the signed status and on the certificate, at once", async () => {
    const { sandboxKey: key } = await newAccount("agent-ledger");
    const a = await newAgent(key, { agent_wallets: [await walletRecord(key)] });
    const first = await transferAfter(a.issuedAt, parseEther("0.25"));
    const second = await transferAfter(Date.now(), parseEther("0.5"));
    await mine(1);

    expect((await verifiedStatus(a.id)).agent.payments).toEqual({ count: 0, totals: [] }); // now cached
    expect((await pay(key, { tx_hash: first.hash, agent_record: a.id, act: "pay_invoices" })).status).toBe(201);
    expect((await verifiedStatus(a.id)).agent.payments).toEqual({ count: 1, totals: [{ network: "base", asset: "ETH", value: "250000000000000000" }] });
    const p2 = await pay(key, { tx_hash: second.hash, agent_record: a.id });
    expect(p2.status).toBe(201);
    const both = { count: 2, totals: [{ network: "base", asset: "ETH", value: "750000000000000000" }] };
    expect((await verifiedStatus(a.id)).agent.payments).toEqual(both);
    // The same transaction recorded twice counts once; a payment without an agent, not at all.
    expect((await pay(key, { tx_hash: second.hash, agent_record: a.id })).status).toBe(201);
    expect((await pay(key, { tx_hash: first.hash })).status).toBe(201);
    expect((await verifiedStatus(a.id)).agent.payments).toEqual(both);
    // The record object of the agent shows it too.
    expect((await call("GET", `/api/v1/records/${a.id}`, { key })).body.agent.payments).toEqual(both);

    const html = await page(a.id);
    expect(html).toContain('data-testid="agent-payments" data-count="2"');
    expect(html).toMatch(/2 payments recorded on this service name this authorization/);
    expect(html).toContain('data-testid="agent-wallets" data-count="1"'); // a sandbox wallet record is private: counted, never named
    expect(html).toContain("0.75 ETH");
    expect(html).toContain("each transaction once. The total is added up, never checked against the mandate's limit of 1.5 ETH");

    // A revoked payment no longer counts, and the cached status drops with it.
    const revoke = await call("POST", `/api/v1/records/${p2.body.verification_id}/lifecycle`, { key, body: { operation: "revoke", reason: "Recorded under the wrong agent." } });
    expect(revoke.status, revoke.text).toBe(200);
    expect((await verifiedStatus(a.id)).agent.payments).toEqual(both); // the duplicate of `second` still stands
    const duplicate = (await call("GET", "/api/v1/records?claim_type=evm_transaction&status=active", { key })).body.data
      .find((d: { evidence: { tx_hash: string; agent_link?: unknown } }) => d.evidence.tx_hash === second.hash && d.evidence.agent_link);
    expect((await call("POST", `/api/v1/records/${duplicate.verification_id}/lifecycle`, { key, body: { operation: "revoke", reason: "Recorded twice." } })).status).toBe(200);
    expect((await verifiedStatus(a.id)).agent.payments).toEqual({ count: 1, totals: [{ network: "base", asset: "ETH", value: "250000000000000000" }] });
  }, 60_000);

  it("a batch of payments citing the agent shows in its cached status at once", async () => {
    const { sandboxKey: key } = await newAccount("agent-ledger-batch");
    const a = await newAgent(key, { agent_wallets: [await walletRecord(key)] });
    const one = await transferAfter(a.issuedAt, parseEther("0.1"));
    const two = await transferAfter(Date.now(), parseEther("0.2"));
    await mine(1);
    expect((await verifiedStatus(a.id)).agent.payments.count).toBe(0); // now cached
    const row = (hash: Hex) => ({ subject: "Invoice", claim_type: "evm_transaction", claim: "The agent paid.", evidence: { network, tx_hash: hash, agent_record: a.id, act: "pay_invoices" } });
    const b = await call("POST", "/api/v1/records/batch", { key, body: { records: [row(one.hash), row(two.hash)] } });
    expect(b.status, b.text).toBe(200);
    expect(b.body.totals).toMatchObject({ issued: 2, failed: 0 });
    expect((await verifiedStatus(a.id)).agent.payments).toEqual({ count: 2, totals: [{ network: "base", asset: "ETH", value: "300000000000000000" }] });
  }, 60_000);
});

describe("payment attribution: the agent's wallets", () => {
  it("a payment from one of the agent's wallets is agent_wallet and counted; from any other wallet it is cited and not counted", async () => {
    // Live: a public live wallet record is named in the agent's public fields (sandbox records are private).
    const { liveKey: key } = await newLiveAccount();
    const stranger = privateKeyToAccount(generatePrivateKey());
    const strangerWallet = await walletRecord(key, stranger);
    const senderWallet = await walletRecord(key);
    // Two agents of the same account: one whose wallet sent the payment, one whose wallet did not.
    const own = await newAgent(key, { agent_wallets: [strangerWallet, senderWallet] });
    const notIts = await newAgent(key, { agent_wallets: [strangerWallet] });
    const tx = await transferAfter(Math.max(own.issuedAt, notIts.issuedAt), parseEther("0.3"));
    await mine(1);

    const cited = await pay(key, { tx_hash: tx.hash, agent_record: notIts.id, act: "pay_invoices" });
    expect(cited.status, cited.text).toBe(201);
    expect(cited.body.evidence.from.toLowerCase()).toBe(sender.address.toLowerCase());
    expect(cited.body.agent_link).toMatchObject({ agent_record: notIts.id, agent_status_at_payment: "active", attribution: "cited" });
    expect((await verifiedStatus(cited.body.verification_id)).agent_link.attribution).toBe("cited");
    expect((await verifiedStatus(notIts.id)).agent.payments).toEqual({ count: 0, totals: [] });
    const citedPage = await page(cited.body.verification_id);
    expect(citedPage).toContain('data-attribution="cited"');
    expect(citedPage).toMatch(/It was not sent from one of the agent's wallets/);

    const attributed = await pay(key, { tx_hash: tx.hash, agent_record: own.id, act: "pay_invoices" });
    expect(attributed.status, attributed.text).toBe(201);
    expect(attributed.body.agent_link).toMatchObject({ agent_record: own.id, attribution: "agent_wallet" });
    const st = await verifiedStatus(own.id);
    expect(st.agent.payments).toEqual({ count: 1, totals: [{ network: "base", asset: "ETH", value: "300000000000000000" }] });
    // The agent's wallets are public fields of the agent, in the order named.
    expect(st.agent.wallets).toEqual([
      { verification_id: strangerWallet, address: stranger.address, network: "ethereum", standing: "active" },
      { verification_id: senderWallet, address: sender.address, network: "ethereum", standing: "active" },
    ]);
    expect((await call("GET", `/api/v1/records/${own.id}`, { key })).body.links.map((l: { role: string }) => l.role)).toEqual(["agent_wallet_0", "agent_wallet_1"]);
    expect(await page(attributed.body.verification_id)).toContain('data-attribution="agent_wallet"');

    // A wallet whose record was revoked no longer attributes new payments to the agent.
    expect((await call("POST", `/api/v1/records/${senderWallet}/lifecycle`, { key, body: { operation: "revoke", reason: "Wallet retired." } })).status).toBe(200);
    const afterRevoke = await pay(key, { tx_hash: tx.hash, agent_record: own.id });
    expect(afterRevoke.body.agent_link).toMatchObject({ attribution: "cited" });
    expect((await verifiedStatus(own.id)).agent.wallets[1]).toMatchObject({ verification_id: senderWallet, standing: "lapsed" });
  }, 60_000);

  it("agent_wallets must name active wallet_ownership records of the same account and environment (422 linked_record_invalid naming the index)", async () => {
    const live = await newLiveAccount();
    const key = live.sandboxKey;
    const other = await newAccount("agent-attr-other");
    const mine_ = await walletRecord(key);
    const theirs = await walletRecord(other.sandboxKey);
    const liveWallet = await walletRecord(live.liveKey);
    const statement = (await call("POST", "/api/v1/records", { key, body: companyStatus() })).body.verification_id as string;
    const revoked = await walletRecord(key, privateKeyToAccount(generatePrivateKey()));
    expect((await call("POST", `/api/v1/records/${revoked}/lifecycle`, { key, body: { operation: "revoke", reason: "Retired." } })).status).toBe(200);
    const cases: [string[], number, RegExp][] = [
      [[mine_, theirs], 1, /no record of this account has that id/],
      [[statement], 0, /must be a wallet_ownership record, not company_status/],
      [[mine_, liveWallet], 1, /the wallet record is a live record; this agent is sandbox/],
      [[revoked], 0, /the wallet record is revoked; it must be active/],
    ];
    for (const [wallets, at, message] of cases) {
      const r = await call("POST", "/api/v1/records", { key, body: agentBody({ agent_wallets: wallets }) });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ type: "invalid_request_error", code: "linked_record_invalid", param: `agent_wallets[${at}]` });
      expect(r.body.error.message).toMatch(message);
    }
    const twice = await call("POST", "/api/v1/records", { key, body: agentBody({ agent_wallets: [mine_, mine_] }) });
    expect(twice.body.error).toMatchObject({ code: "invalid_value", param: "agent_wallets[1]" });
    const tooMany = await call("POST", "/api/v1/records", { key, body: agentBody({ agent_wallets: Array(11).fill(mine_) }) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.param).toBe("agent_wallets");
    // The live agent takes the live wallet.
    const liveAgent = await call("POST", "/api/v1/records", { key: live.liveKey, body: agentBody({ agent_wallets: [liveWallet] }) });
    expect(liveAgent.status, liveAgent.text).toBe(201);
    expect(liveAgent.body.agent.wallets).toEqual([{ verification_id: liveWallet, address: sender.address, network: "ethereum", standing: "active" }]);
  }, 60_000);
});
