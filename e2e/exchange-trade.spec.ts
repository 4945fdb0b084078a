import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { writeExchange } from "../tests/exchange";
import { admin, baseURL, shotBoth } from "./helpers";

/** The certificate of one testnet trade (the sandbox pilot): what was read, and that it is one trade, not performance. */
test("an exchange trade certificate says what one trade was, and that it proves no performance", async ({ browser }) => {
  const apiKey = "PRSXSECRETe2eKEY";
  const apiSecret = "PRSXSECRET-e2e-secret";
  const t = Date.now() - 86_400_000;
  writeExchange(process.env.PRS_E2E_EXCHANGE_TESTNET!, {
    keys: { [apiKey]: { secret: apiSecret, readOnly: 1, userID: 1448939, isMaster: true, parentUid: "0" } },
    closedPnl: { [apiKey]: [{
      symbol: "ETHUSDT", orderId: "ord-e2e-1", side: "Buy", qty: "2", orderPrice: "0", orderType: "Market", execType: "Trade", closedSize: "2",
      cumEntryValue: "6400", avgEntryPrice: "3200", cumExitValue: "6200", avgExitPrice: "3100", closedPnl: "192.4", openFee: "3.84", closeFee: "3.76",
      fillCount: "1", leverage: "3", createdTime: String(t), updatedTime: String(t),
    }] },
    executions: { [apiKey]: [{ symbol: "ETHUSDT", orderId: "ord-e2e-1", side: "Buy", execPrice: "3100", execQty: "2", execTime: String(t - 500), execType: "Trade", isMaker: false, seq: 1 }] },
  });
  const a = await admin("account", "create", "--email", `e2e-x-${randomUUID().slice(0, 8)}@example.com`);
  const r = await fetch(`${baseURL}/api/v1/records`, {
    method: "POST",
    headers: { Authorization: `Bearer ${String(a.sandbox_key)}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({
      subject: "ETHUSDT short, closed", claim_type: "exchange_verified_trade_test", claim: "Closed an ETHUSDT short at a profit on the testnet.",
      evidence: {
        environment: "testnet", api_key: apiKey, api_secret: apiSecret, category: "linear", order_id: "ord-e2e-1",
        start_time: new Date(t - 3600_000).toISOString(), end_time: new Date(t + 3600_000).toISOString(),
      },
    }),
  });
  const body = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(201);
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto(`/r/${body.verification_id}`);
  await expect(page.getByTestId("proof-scope")).toContainText("a short position of 2 ETHUSDT");
  await expect(page.getByTestId("proof-scope")).toContainText("this verifies one trade only");
  expect(await page.content()).not.toContain("PRSXSECRET");
  await shotBoth(page, "certificate-exchange-trade");
});
