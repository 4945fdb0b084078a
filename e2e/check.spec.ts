import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { admin, baseURL, setDns, shotBoth } from "./helpers";

/** "Check before you pay" in Chromium without JavaScript, at 1280 and 390 px: a match, and the loud warning for another operator. */
test("/check gives plain verdicts without JavaScript, loudest for a different operator", async ({ browser }) => {
  const a = await admin("account", "create", "--email", `e2e-check-${randomUUID().slice(0, 8)}@example.com`);
  await admin("account", "confirm-email", "--account", String(a.account_id));
  await admin("plan", "set", "--account", String(a.account_id), "--plan", "growth");
  const key = String((await admin("key", "create", "--account", String(a.account_id), "--env", "live")).key);
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${baseURL}${path}`, {
      method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: body ? JSON.stringify(body) : undefined,
    });
    return r.json();
  };
  await api("PATCH", "/api/v1/account", { name: "Seaview Apartments" });
  const domain = `seaview-${randomUUID().slice(0, 6)}.example.com`;
  const c = await api("POST", "/api/v1/domain-challenges", { domain });
  setDns(c.txt_name, [c.txt_value]);
  const rec = await api("POST", "/api/v1/records", { subject: domain, claim_type: "domain_ownership", claim: `Seaview controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.id } });
  expect(rec.status).toBe("active");

  const ctx = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": `10.9.${Math.floor(Math.random() * 250)}.7` } });
  const page = await ctx.newPage();
  await page.goto("/check");
  await page.getByLabel("Operator").fill("Seaview Apartments");
  await page.getByLabel("Website").fill(`https://www.${domain}/book`);
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "match");
  await expect(page.getByTestId("verdict-website")).toContainText("On record for Seaview Apartments");
  await shotBoth(page, "check-match");

  await page.getByLabel("Operator").fill("Sunny Coast Rentals");
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "mismatch");
  await expect(page.getByRole("alert")).toContainText("DIFFERENT operator: Seaview Apartments");
  await shotBoth(page, "check-mismatch");
  await ctx.close();
});
