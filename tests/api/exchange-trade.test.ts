import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { writeExchange, type ExchangeData } from "../exchange";
import { SECRET_MARKER } from "../secret-scan";
import { admin, call, newAccount, newLiveAccount } from "../helpers";

/**
 * Exchange trade records through the API (spec 2.7; CONTRACT "Exchange trade records")
 * against two exchange stand-ins (testnet and mainnet) that check the documented signature:
 * the test pilot with sandbox keys, the live type behind an admin's switch, every refusal
 * with its code, an outage as 202 — and the key and secret in no answer. (After the whole
 * run, tests/secret-scan.ts looks for them in the database and the server's log.)
 */
const { testnetFile, mainnetFile } = inject("exchange");
const RO = { apiKey: `${SECRET_MARKER}KEYRO${randomUUID().slice(0, 6)}`, apiSecret: `${SECRET_MARKER}-secret-ro-${randomUUID()}` };
const RW = { apiKey: `${SECRET_MARKER}KEYRW`, apiSecret: `${SECRET_MARKER}-secret-rw` };
const WD = { apiKey: `${SECRET_MARKER}KEYWD`, apiSecret: `${SECRET_MARKER}-secret-wd` };
const MAIN = { apiKey: `${SECRET_MARKER}KEYMAIN`, apiSecret: `${SECRET_MARKER}-secret-main` };

const T0 = Date.now() - 2 * 86_400_000;
const row = (orderId: string, t: number, o: Record<string, string> = {}) => ({
  symbol: "BTCUSDT", orderId, side: "Sell", qty: "0.5", orderPrice: "0", orderType: "Market", execType: "Trade", closedSize: "0.5",
  cumEntryValue: "30000", avgEntryPrice: "60000", cumExitValue: "30500", avgExitPrice: "61000", closedPnl: "481.5",
  openFee: "9", closeFee: "9.5", fillCount: "2", leverage: "5", createdTime: String(t), updatedTime: String(t), ...o,
});
const fill = (orderId: string, qty: string, price: string, t: number) => ({
  symbol: "BTCUSDT", orderId, side: "Sell", execPrice: price, execQty: qty, execTime: String(t), execType: "Trade", isMaker: false, seq: t,
});
function data(key: { apiKey: string; apiSecret: string }, over: Partial<ExchangeData> = {}): ExchangeData {
  return {
    keys: {
      [key.apiKey]: { secret: key.apiSecret, readOnly: 1, userID: 5550001, isMaster: false, parentUid: "5550000" },
      [RW.apiKey]: { secret: RW.apiSecret, readOnly: 0 },
      [WD.apiKey]: { secret: WD.apiSecret, readOnly: 1, permissions: { Wallet: ["Withdraw"] } },
    },
    closedPnl: { [key.apiKey]: [row("order-a", T0), row("order-b", T0 + 1000), row("order-c", T0 + 2000), row("order-odd", T0 + 3000, { closedSize: "0.7" })] },
    executions: { [key.apiKey]: [fill("order-c", "0.2", "60900", T0 + 1500), fill("order-c", "0.3", "61066.66666667", T0 + 1900), fill("order-odd", "0.5", "61000", T0 + 2900)] },
    pageSize: 2,
    ...over,
  };
}
beforeEach(() => {
  writeExchange(testnetFile, data(RO));
  writeExchange(mainnetFile, data(MAIN));
});

const evidence = (key: { apiKey: string; apiSecret: string }, o: Record<string, unknown> = {}) => ({
  environment: "testnet", api_key: key.apiKey, api_secret: key.apiSecret, category: "linear", order_id: "order-c",
  start_time: new Date(T0 - 3600_000).toISOString(), end_time: new Date(T0 + 3600_000).toISOString(), ...o,
});
const submit = (apiKey: string, type: string, ev: Record<string, unknown>, idem?: string) =>
  call("POST", "/api/v1/records", {
    key: apiKey, ...(idem ? { idem } : {}),
    body: { subject: "BTCUSDT long, closed", claim_type: type, claim: "Closed a BTCUSDT long at a profit.", evidence: ev },
  });
const noSecret = (text: string) => expect(text).not.toContain(SECRET_MARKER);

describe("exchange_verified_trade_test (the sandbox pilot)", () => {
  it("issues one reconciled trade from a read-only testnet key, keeping neither key nor secret", async () => {
    const { sandboxKey } = await newAccount("xpilot");
    const idem = randomUUID();
    const r = await submit(sandboxKey, "exchange_verified_trade_test", evidence(RO), idem);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ environment: "sandbox", evidence_level: "source_verified", verified: false });
    expect(r.body.evidence).toMatchObject({
      environment: "testnet", category: "linear", order_id: "order-c", symbol: "BTCUSDT", position: "long", closing_side: "Sell",
      quantity: "0.5", avg_entry_price: "60000", avg_exit_price: "61000", closed_pnl: "481.5", fees: { open: "9", close: "9.5" },
      fills: 2, user_id: "5550001", account_type: "sub-account", closed_at: new Date(T0 + 2000).toISOString(),
    });
    expect(r.body.evidence.answers_sha256).toMatch(/^[0-9a-f]{64}$/);
    noSecret(r.text);
    const replay = await submit(sandboxKey, "exchange_verified_trade_test", evidence(RO), idem);
    expect(replay.status).toBe(200);
    noSecret(replay.text);
    noSecret((await call("GET", `/api/v1/records/${r.body.verification_id}`, { key: sandboxKey })).text);
    noSecret((await call("GET", `/api/v1/records/${r.body.verification_id}/signature`)).text);
  });

  it("refuses, with its code and without echoing a secret, what it cannot verify", async () => {
    const { sandboxKey } = await newAccount("xref");
    const expectRefusal = async (ev: Record<string, unknown>, code: string, message?: RegExp) => {
      const r = await submit(sandboxKey, "exchange_verified_trade_test", ev);
      expect(r.status, r.text).toBe(422);
      expect(r.body.error.code).toBe(code);
      if (message) expect(r.body.error.message).toMatch(message);
      noSecret(r.text);
    };
    await expectRefusal(evidence(RO, { environment: "mainnet" }), "environment_mismatch");
    await expectRefusal(evidence(RO, { end_time: new Date(T0 + 8 * 86_400_000).toISOString() }), "window_too_long");
    await expectRefusal(evidence(RW), "credentials_not_read_only");
    await expectRefusal(evidence(WD), "credentials_not_read_only");
    await expectRefusal(evidence(MAIN), "credentials_invalid", /testnet keys only: a mainnet \(production\) key/);
    await expectRefusal(evidence({ ...RO, apiSecret: `${SECRET_MARKER}-not-the-secret` }), "credentials_invalid", /signature/);
    await expectRefusal(evidence(RO, { order_id: "no-such-order" }), "trade_not_found");
    await expectRefusal(evidence(RO, { order_id: "order-odd" }), "trade_not_found", /do not reconcile/);
    await expectRefusal(evidence(RO, { api_secret: 42 }), "invalid_type");
  });

  it("a live API key of this service is refused on the pilot", async () => {
    const live = await newLiveAccount();
    const r = await submit(live.liveKey, "exchange_verified_trade_test", evidence(RO));
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: "environment_mismatch", param: "claim_type" });
  });

  it("an exchange that does not answer → 202 pending_review, credentials not kept: submit again later", async () => {
    const { sandboxKey } = await newAccount("xdown");
    writeExchange(testnetFile, { ...data(RO), failStatus: 503 });
    const r = await submit(sandboxKey, "exchange_verified_trade_test", evidence(RO));
    expect(r.status, r.text).toBe(202);
    expect(r.body.review.reason).toMatch(/HTTP 503.*not kept.*submit it again later/s);
    noSecret(r.text);
    expect(r.body.evidence).toEqual(expect.not.objectContaining({ api_key: expect.anything() }));
    noSecret((await call("GET", `/api/v1/records/${r.body.verification_id}`, { key: sandboxKey })).text);
  });
});

describe("exchange_verified_trade (live)", () => {
  it("needs an admin's switch; then issues source_verified from a mainnet key", async () => {
    const live = await newLiveAccount();
    const mainEvidence = evidence(MAIN, { environment: "mainnet" });
    const off = await submit(live.liveKey, "exchange_verified_trade", mainEvidence);
    expect(off.status).toBe(422);
    expect(off.body.error.code).toBe("live_exchange_verification_disabled");
    await admin("live-exchange", "enable", "--account", live.accountId);
    const on = await submit(live.liveKey, "exchange_verified_trade", mainEvidence);
    expect(on.status, on.text).toBe(201);
    expect(on.body).toMatchObject({ environment: "live", evidence_level: "source_verified", verified: true, evidence: { environment: "mainnet", order_id: "order-c" } });
    noSecret(on.text);
    const { sandboxKey } = await newAccount("xsb");
    expect((await submit(sandboxKey, "exchange_verified_trade", mainEvidence)).body.error.code).toBe("environment_mismatch");
  });
});
