import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { admin, baseURL, shotBoth, liveCustomerAccount } from "./helpers";

/** The public directory in Chromium, with and without JavaScript, at 1280 and 390 px. */
test("the directory lists public live records and searches without JavaScript", async ({ browser }) => {
  const a = await liveCustomerAccount("dir");
  const key = a.liveKey;
  const tag = `Directory ${randomUUID().slice(0, 6)}`;
  const r = await fetch(`${baseURL}/api/v1/records`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({ subject: `${tag} Trading Ltd`, claim_type: "company_status", claim: `${tag} Trading Ltd is an active company.`, visibility: "public" }),
  });
  const id = (await r.json()).verification_id as string;

  const ctx = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto("/directory");
  await page.getByLabel("Search subject or claim").fill(tag);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/directory\?q=/);
  const row = page.locator(`[data-testid="directory-row"][data-id="${id}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute("data-tone", "stated"); // the account's own word: never green
  await expect(row).toContainText("Stated by an unnamed account — not checked");
  await shotBoth(page, "directory");
  await row.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/r/${id}$`));
  await ctx.close();
});

test("a search for a verified organisation's name starts with it, and marks another account's record under the name", async ({ browser }) => {
  const account = async () => {
    const a = await liveCustomerAccount("dir");
    const key = a.liveKey;
    const call = async (method: string, path: string, body: unknown) => (await fetch(`${baseURL}${path}`, {
      method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() }, body: JSON.stringify(body),
    })).json();
    return { id: a.accountId, call };
  };
  const legal = `Quayside ${randomUUID().slice(0, 6)} Holidays Ltd`;
  const real = await account();
  await admin("organisation", "verify", "--account", real.id, "--legal-name", legal);
  const statement = { claim_type: "company_status", claim: `${legal} is an active company.`, visibility: "public" };
  const own = (await real.call("POST", "/api/v1/records", { subject: legal, ...statement })).verification_id as string;
  const copier = await account();
  await copier.call("PATCH", "/api/v1/account", { name: legal });
  const copy = (await copier.call("POST", "/api/v1/records", { subject: legal, ...statement })).verification_id as string;

  const ctx = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`/directory?${new URLSearchParams({ q: legal })}`);
  const head = page.getByTestId("directory-organisations");
  await expect(head).toContainText(`✓ ${legal}`);
  // Above every record, the copy included.
  expect((await head.boundingBox())!.y).toBeLessThan((await page.getByTestId("directory-row").first().boundingBox())!.y);
  await expect(page.locator(`[data-testid="directory-row"][data-id="${copy}"]`).getByTestId("not-this-organisation")).toContainText(`Not from ${legal}`);
  await expect(page.locator(`[data-testid="directory-row"][data-id="${own}"]`).getByTestId("not-this-organisation")).toHaveCount(0);
  await shotBoth(page, "directory-verified-first");
  await head.getByRole("link", { name: "its records" }).click();
  await expect(page.locator(`[data-testid="directory-row"][data-id="${own}"]`)).toBeVisible();
  await expect(page.locator(`[data-testid="directory-row"][data-id="${copy}"]`)).toHaveCount(0);
  await ctx.close();
});
