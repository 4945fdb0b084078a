import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startExchange, writeExchange, type ExchangeData } from "@/tests/exchange";
import { answersSha256, closedPnlOf, executionsOf, queryApiKey, signature } from "./exchange";

/**
 * The exchange client against the stand-in (a real HTTP server on loopback that checks the
 * signature as the exchange does): key information, the closed-P&L row of one order across
 * pages, its executions, and every failure as data that never carries the key or secret.
 */
let dir: string;
let file: string;
let ex: Awaited<ReturnType<typeof startExchange>>;
const src = () => ({ baseUrl: ex.url, timeoutMs: 500 });
const creds = { apiKey: "TESTKEY0001", apiSecret: "s3cret-never-shown" };
const pnl = (orderId: string, t: number) => ({
  symbol: "BTCUSDT", orderId, side: "Sell", qty: "0.5", orderPrice: "0", orderType: "Market", execType: "Trade", closedSize: "0.5",
  cumEntryValue: "30000", avgEntryPrice: "60000", cumExitValue: "30500", avgExitPrice: "61000", closedPnl: "500", fillCount: "2",
  leverage: "5", createdTime: String(t), updatedTime: String(t),
});
const T0 = Date.now() - 3 * 86_400_000;
const base: ExchangeData = {
  keys: { [creds.apiKey]: { secret: creds.apiSecret } },
  closedPnl: { [creds.apiKey]: Array.from({ length: 7 }, (_, i) => pnl(`order-${i}`, T0 + i * 1000)) },
  executions: { [creds.apiKey]: [{ orderId: "order-5", side: "Sell", execPrice: "61000", execQty: "0.5", execTime: String(T0 + 5000), execType: "Trade", isMaker: false, seq: 1 }] },
  pageSize: 2,
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "prs-exchange-"));
  file = path.join(dir, "exchange.json");
  writeExchange(file, base);
  ex = await startExchange(file);
});
beforeEach(() => {
  writeExchange(file, base);
  ex.requests.length = 0;
});
afterAll(async () => {
  await ex.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const leaks = (x: unknown) => JSON.stringify(x).includes(creds.apiKey) || JSON.stringify(x).includes(creds.apiSecret);

describe("exchange client", () => {
  it("signs as documented: the vector computed for the reference", () => {
    expect(signature("test-secret", "1658384314791", "XXXXXXXXXX", "5000", "category=option&symbol=BTC-29JUL22-25000-C"))
      .toBe("236d8f7132d3e4c8bad803010e296f3d07211356e54c01455b26c8229a682297");
  });

  it("reads the key: read-only, no withdrawal or transfer, its user and whether it is a master account", async () => {
    expect(await queryApiKey(src(), creds)).toMatchObject({ kind: "ok", result: { readOnly: true, canWithdraw: false, canTransfer: false, userId: "1448939", isMaster: true } });
    writeExchange(file, { ...base, keys: { [creds.apiKey]: { secret: creds.apiSecret, readOnly: 0, permissions: { Wallet: ["AccountTransfer", "Withdraw"] }, isMaster: false, parentUid: "77" } } });
    expect(await queryApiKey(src(), creds)).toMatchObject({ kind: "ok", result: { readOnly: false, canWithdraw: true, canTransfer: true, isMaster: false } });
  });

  it("finds one order's closed P&L across pages, passing the cursor back verbatim and signed", async () => {
    const a = await closedPnlOf(src(), creds, { category: "linear", orderId: "order-5", startMs: T0 - 1000, endMs: T0 + 86_400_000 });
    expect(a, JSON.stringify(a)).toMatchObject({ kind: "ok" });
    if (a.kind !== "ok") return;
    expect(a.result.row).toMatchObject({ orderId: "order-5", side: "Sell", closedPnl: "500" });
    expect(ex.requests.map((r) => r.query)).toEqual([
      `category=linear&startTime=${T0 - 1000}&endTime=${T0 + 86_400_000}&limit=100`,
      `category=linear&startTime=${T0 - 1000}&endTime=${T0 + 86_400_000}&limit=100&cursor=page%3A2%2C11`,
      `category=linear&startTime=${T0 - 1000}&endTime=${T0 + 86_400_000}&limit=100&cursor=page%3A4%2C11`,
    ]);
    expect(a.result.raws).toHaveLength(3);
    expect(answersSha256(a.result.raws)).toMatch(/^[0-9a-f]{64}$/);
    const none = await closedPnlOf(src(), creds, { category: "linear", orderId: "no-such-order", startMs: T0 - 1000, endMs: T0 + 86_400_000 });
    expect(none).toMatchObject({ kind: "ok", result: { row: null } });
    const fills = await executionsOf(src(), creds, { category: "linear", orderId: "order-5", startMs: T0 - 1000, endMs: T0 + 86_400_000 });
    expect(fills).toMatchObject({ kind: "ok", result: { rows: [{ orderId: "order-5", execQty: "0.5" }] } });
  });

  it("an unknown key or a wrong secret is refused, in words that carry neither", async () => {
    const unknown = await queryApiKey(src(), { ...creds, apiKey: "OTHERKEY" });
    expect(unknown).toMatchObject({ kind: "refused", reason: expect.stringContaining("does not know this API key") });
    const wrong = await queryApiKey(src(), { ...creds, apiSecret: "not-the-secret" });
    expect(wrong).toMatchObject({ kind: "refused", reason: expect.stringContaining("signature") });
    expect(leaks(unknown) || leaks(wrong)).toBe(false); // the exchange's 10004 message echoes the key: never passed on
  });

  it("a busy, slow or failing exchange is unreachable, never a no", async () => {
    writeExchange(file, { ...base, retCode: 10006 });
    expect((await queryApiKey(src(), creds)).kind).toBe("unreachable");
    writeExchange(file, { ...base, failStatus: 503 });
    expect(await queryApiKey(src(), creds)).toEqual({ kind: "unreachable", reason: "The exchange answered HTTP 503." });
    writeExchange(file, { ...base, failStatus: 429 });
    expect((await queryApiKey(src(), creds)).kind).toBe("unreachable");
    writeExchange(file, { ...base, delayMs: 800 });
    expect(await queryApiKey(src(), creds)).toEqual({ kind: "unreachable", reason: "The exchange did not answer within 500 ms." });
    writeExchange(file, base);
    expect(await queryApiKey(src(), creds, Date.now() - 60_000)).toMatchObject({ kind: "unreachable", reason: expect.stringContaining("clocks disagree") });
  });

  it("an exchange that sends its headers and then stalls is unreachable at the timeout, not a hung check", async () => {
    const stalls = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"retCode":0,'); // and never the rest
    });
    await new Promise<void>((r) => stalls.listen(0, "127.0.0.1", () => r()));
    try {
      const { port } = stalls.address() as { port: number };
      expect(await queryApiKey({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 500 }, creds)).toEqual({ kind: "unreachable", reason: "The exchange did not answer within 500 ms." });
    } finally {
      stalls.closeAllConnections();
      await new Promise<void>((r) => stalls.close(() => r()));
    }
  });
});
