import { expect, test, type Browser } from "@playwright/test";
import { baseURL, hydrated, issue, newClientContext, ownClientAddress, password, shot, shotBoth, signUp } from "./helpers";

// Each test (and each extra browser) signs up from a client address of its own: no test spends another's rate-limit window.
// Clipboard access for the Copy buttons.
test.use({ baseURL, extraHTTPHeaders: ownClientAddress, permissions: ["clipboard-read", "clipboard-write"] });

async function otherAccountRecord(browser: Browser): Promise<string> {
  const ctx = await newClientContext(browser);
  try {
    const key = await signUp(await ctx.newPage(), `e2e-other-${Date.now()}@example.com`);
    return await issue(key, "Other Holdings Ltd");
  } finally {
    await ctx.close();
  }
}

test("records: list, detail, suspend and reinstate, certificate, tenancy", async ({ page, browser }) => {
  const email = `e2e-rec-${Date.now()}@example.com`;
  const sandboxKey = await signUp(page, email);
  expect(sandboxKey).toMatch(/^prs_sandbox_[0-9A-Za-z]{32}$/);

  // The records page needs a session.
  await page.goto("/records");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Frecords/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/records$/);
  await expect(page.getByTestId("no-records")).toBeVisible();

  const older = await issue(sandboxKey, "Acme Trading Ltd");
  const id = await issue(sandboxKey, "Beta Widgets Ltd");

  // Listed newest first; the portal navigation links here.
  await page.goto("/developers");
  await page.getByRole("link", { name: "Records", exact: true }).click();
  await expect(page).toHaveURL(/\/records$/);
  const rows = page.getByTestId("record-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-id", id);
  await expect(rows.nth(1)).toHaveAttribute("data-id", older);
  await expect(rows.nth(0)).toContainText("Beta Widgets Ltd");
  await expect(rows.nth(0)).toContainText("company_status");
  await expect(rows.nth(0).getByTestId("status-badge")).toHaveText("Active");
  await expect(rows.nth(0).getByRole("link", { name: "Certificate" })).toHaveAttribute("href", `/r/${id}`);
  await shot(page, "records");

  // Filters live in the query string; the live environment has none of these.
  await page.goto("/records?environment=live");
  await expect(page.getByTestId("no-records")).toBeVisible();
  await page.goto("/records?status=suspended");
  await expect(page.getByTestId("no-records")).toBeVisible();
  await page.goto("/records?status=bogus");
  await expect(page.locator("main [role=alert]")).toContainText("filters are not valid");

  // Pagination: "next page" continues after the last id shown (starting_after).
  await page.goto("/records?limit=1");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-id", id);
  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(new RegExp(`starting_after=${id}`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-id", older);
  await expect(page.getByTestId("next-page")).toHaveCount(0);
  await page.goto("/records");

  // Detail: the owner's view with the moves the transition table allows from active.
  await page.locator(`[data-testid="record-row"][data-id="${id}"]`).getByRole("link", { name: id }).click();
  await expect(page).toHaveURL(new RegExp(`/records/${id}$`));
  await expect(page.getByTestId("record-id")).toHaveText(id);
  await expect(page.getByTestId("record-status")).toHaveText("Active");
  for (const op of ["suspend", "revoke", "expire", "supersede"]) await expect(page.getByTestId(`lifecycle-${op}`)).toBeVisible();
  await expect(page.getByTestId("lifecycle-reinstate")).toHaveCount(0);
  // The certificate link, to share, with a Copy button.
  await page.getByRole("button", { name: "Copy certificate link" }).click();
  await expect(page.getByRole("button", { name: "Copy certificate link" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/r/${id}`);
  await shotBoth(page, "record-detail");

  // Supersede by a record id that does not exist: a clear message under that field, not a
  // 500; the reason, the id and the tick stay for the next try.
  const sup = page.getByTestId("lifecycle-supersede");
  await hydrated(sup.getByRole("button", { name: "Supersede" }));
  await sup.getByLabel(/^Reason/).fill("Replaced by a newer record");
  await sup.getByLabel(/^Superseded by/).fill("PRS-00000000000000000000");
  await sup.getByLabel(/I understand this cannot be undone/).check();
  await sup.getByRole("button", { name: "Supersede" }).click();
  await expect(page.locator("main [role=alert]")).toContainText("No record PRS-00000000000000000000");
  await expect(sup.getByLabel(/^Superseded by/)).toHaveAttribute("aria-invalid", "true");
  await expect(sup.getByTestId("field-error")).toContainText("No record PRS-00000000000000000000");
  await expect(sup.getByLabel(/^Reason/)).toHaveValue("Replaced by a newer record");
  await expect(sup.getByLabel(/^Superseded by/)).toHaveValue("PRS-00000000000000000000");
  await expect(sup.getByLabel(/I understand this cannot be undone/)).toBeChecked();
  await expect(page.getByTestId("record-status")).toHaveText("Active");
  await shotBoth(page, "record-error");

  // Suspend with a reason.
  const suspend = page.getByTestId("lifecycle-suspend");
  await suspend.getByLabel(/^Reason/).fill("Under investigation by compliance");
  await suspend.getByRole("button", { name: "Suspend" }).click();
  await expect(page.getByTestId("record-status")).toHaveText("Suspended");
  const history = page.getByTestId("history-row");
  await expect(history.last()).toContainText("suspended");
  await expect(history.last()).toContainText("owner");
  await expect(history.last()).toContainText("Under investigation by compliance");
  await expect(page.getByTestId("lifecycle-reinstate")).toBeVisible();
  await expect(page.getByTestId("lifecycle-suspend")).toHaveCount(0);
  await shot(page, "record-suspended");

  // The API sees it too.
  const status = await (await fetch(`${baseURL}/api/v1/records/${id}/status`)).json();
  expect(status.status).toBe("suspended");

  // Reinstate.
  const reinstate = page.getByTestId("lifecycle-reinstate");
  await reinstate.getByLabel(/^Reason/).fill("Investigation closed");
  await reinstate.getByRole("button", { name: "Reinstate" }).click();
  await expect(page.getByTestId("record-status")).toHaveText("Active");
  await expect(history.last()).toContainText("Investigation closed");
  await shot(page, "record-reinstated");

  // The public certificate shows it, with its history.
  await page.getByTestId("certificate-link").click();
  await expect(page).toHaveURL(new RegExp(`/r/${id}$`));
  await expect(page.getByTestId("status-badge").first()).toHaveText("Active");
  await expect(page.getByText("Beta Widgets Ltd").first()).toBeVisible();
  await shot(page, "record-certificate");

  // Another account's record id is not found here.
  const foreign = await otherAccountRecord(browser);
  const res = await page.goto(`/records/${foreign}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("record-not-found")).toBeVisible();
  await expect(page.getByText("Other Holdings Ltd")).toHaveCount(0);
  await shotBoth(page, "record-not-found");

  // Revoke, expire and supersede cannot be undone: each asks for an explicit confirmation.
  await page.goto(`/records/${older}`);
  for (const op of ["revoke", "expire", "supersede"]) {
    await expect(page.getByTestId(`lifecycle-${op}`).getByLabel(/I understand this cannot be undone/)).not.toBeChecked();
  }
  await expect(page.getByTestId("lifecycle-suspend").getByRole("checkbox")).toHaveCount(0);
  const revoke = page.getByTestId("lifecycle-revoke");
  const historyBefore = await history.count();
  await revoke.getByLabel(/^Reason/).fill("Issued in error");
  // Without the tick the browser does not send the form…
  await revoke.getByRole("button", { name: "Revoke" }).click();
  expect(await revoke.getByRole("checkbox").evaluate((el) => (el as HTMLInputElement).validity.valueMissing)).toBe(true);
  await expect(page.getByTestId("record-status")).toHaveText("Active");
  // …and a form sent without it anyway (the check stripped from the page) is refused by the server.
  await revoke.getByRole("checkbox").evaluate((el) => el.removeAttribute("required"));
  await revoke.getByRole("button", { name: "Revoke" }).click();
  await expect(page.locator("main [role=alert]")).toContainText("tick “I understand this cannot be undone”");
  await expect(revoke.getByLabel(/^Reason/)).toHaveValue("Issued in error");
  await shotBoth(page, "record-revoke-unconfirmed");
  // Nothing changed, here or in the API.
  await page.reload();
  await expect(page.getByTestId("record-status")).toHaveText("Active");
  await expect(history).toHaveCount(historyBefore);
  expect((await (await fetch(`${baseURL}/api/v1/records/${older}/status`)).json()).status).toBe("active");

  // Confirmed: revoked for good, and no further moves are offered.
  await revoke.getByLabel(/^Reason/).fill("Issued in error");
  await revoke.getByLabel(/I understand this cannot be undone/).check();
  await shot(page, "record-revoke-confirm");
  await revoke.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByTestId("record-status")).toHaveText("Revoked");
  await expect(history.last()).toContainText("Issued in error");
  await expect(page.getByTestId("no-actions")).toBeVisible();
  expect((await (await fetch(`${baseURL}/api/v1/records/${older}/status`)).json()).status).toBe("revoked");
  await shot(page, "record-revoked");
});
