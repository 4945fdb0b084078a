import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { admin, baseURL, setDns, shotBoth, liveCustomerAccount } from "./helpers";

/**
 * "Check before you pay" in Chromium without JavaScript, at 1280 and 390 px: one screenshot per
 * verdict. Green only for a verified organisation; amber for an account that merely names
 * itself and for a near name; red for another operator.
 */
async function liveAccount() {
  const a = await liveCustomerAccount("check");
  const key = a.liveKey;
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${baseURL}${path}`, {
      method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: body ? JSON.stringify(body) : undefined,
    });
    return r.json();
  };
  const proveDomain = async (domain: string) => {
    const c = await api("POST", "/api/v1/domain-challenges", { domain });
    setDns(c.txt_name, [c.txt_value]);
    const rec = await api("POST", "/api/v1/records", { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.id } });
    expect(rec.status).toBe("active");
  };
  return { accountId: a.accountId, api, proveDomain };
}

test("/check gives one plain verdict per part and an overall sentence, without JavaScript", async ({ browser }) => {
  test.setTimeout(120_000);
  const tag = randomUUID().slice(0, 6);
  const real = await liveAccount();
  const legal = `Seaview ${tag} Apartments Ltd`;
  const domain = `seaview-${tag}.example.com`;
  await real.proveDomain(domain);
  await admin("organisation", "verify", "--account", real.accountId, "--legal-name", legal, "--domains", domain);
  const imposter = await liveAccount();
  await imposter.api("PATCH", "/api/v1/account", { name: legal });
  const fake = `seaview-${tag}-bookings.example.net`;
  await imposter.proveDomain(fake);

  const ctx = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": `10.9.${Math.floor(Math.random() * 250)}.7` } });
  const page = await ctx.newPage();
  const ask = async (operator: string, website: string) => {
    await page.goto("/check");
    await page.getByLabel("Operator").fill(operator);
    await page.getByLabel("Website").fill(website);
    await page.getByRole("button", { name: "Check" }).click();
  };

  await ask(legal, `https://www.${domain}/book`);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "match");
  await expect(page.getByTestId("verdict-website")).toContainText(`On record for ${legal}, a verified organisation`);
  await expect(page.getByTestId("check-overall")).toHaveAttribute("data-verdict", "match");
  await shotBoth(page, "check-match");
  // On a phone the answer is above the fold: the overall sentence and the first part's verdict, before the form to ask again.
  const before = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  for (const id of ["check-overall", "verdict-website"]) {
    const box = (await page.getByTestId(id).boundingBox())!;
    expect(box.y + Math.min(box.height, 120), id).toBeLessThanOrEqual(844);
  }
  expect((await page.getByTestId("check-overall").boundingBox())!.y).toBeLessThan((await page.getByTestId("check-form").boundingBox())!.y);
  await page.setViewportSize(before);

  await ask(legal.replace("Apartments", "Apartmnets"), domain);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "close_match");
  await expect(page.getByTestId("verdict-website")).toContainText(`Did you mean ${legal}?`);
  await shotBoth(page, "check-close-match");

  await ask("Sunny Coast Rentals", domain);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "mismatch");
  await expect(page.getByRole("alert")).toContainText(`DIFFERENT operator: ${legal}`);
  await shotBoth(page, "check-mismatch");

  // The imposter's site under the real organisation's name: red, one colour — never amber beside a green match (issue 38).
  await ask(legal, fake);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "mismatch");
  await expect(page.getByTestId("verdict-website")).toContainText(`not on record for ${legal}, a verified organisation — only for another account, calling itself “${legal}” (name not verified)`);
  await expect(page.getByTestId("verdict-website").getByTestId("self-name")).toHaveText(legal);
  await expect(page.getByTestId("check-overall")).toHaveAttribute("data-verdict", "mismatch");
  // The operator is a verified organisation — said plainly, not as a green tick beside the red.
  await expect(page.getByTestId("verdict-operator")).toContainText("A verified organisation — see the warning above");
  await expect(page.getByTestId("verdict-operator")).not.toContainText("✓");
  await shotBoth(page, "check-borrowed-name");

  // Asked without the operator: amber, the name the account's own word, shown as data.
  await page.goto(`/check?${new URLSearchParams({ website: fake })}`);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "unverified_operator");
  await expect(page.getByTestId("verdict-website")).toContainText(`Only an account calling itself “${legal}”`);
  await expect(page.getByTestId("check-overall")).toHaveAttribute("data-verdict", "unverified_operator");
  await shotBoth(page, "check-unverified-operator");

  await ask(legal, `nobody-${tag}.example.org`);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "not_on_record");
  await shotBoth(page, "check-not-on-record");

  // Findable: linked from the header of the public pages.
  await page.goto("/");
  await expect(page.getByTestId("home-check-link")).toBeVisible();
  await page.locator("header").getByRole("link", { name: "Check before you pay" }).click();
  await expect(page).toHaveURL(/\/check$/);
  await ctx.close();
});
