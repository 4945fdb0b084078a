import { expect, test } from "@playwright/test";
import { admin, collectBrowserErrors, hydrated, issue, newClientContext, shotBoth, signInWithPassword, signUp } from "./helpers";

/**
 * CONTRACT "What still stands" → staff actions, in Chromium: a visitor reports a record from
 * its certificate; a reviewer finds the report, opens the record in the console and suspends
 * it with a public reason; the certificate then says "Suspended by Proof Records: ‹reason›".
 */
test("a reviewer opens a reported record and suspends it; the certificate says Proof Records suspended it", async ({ browser }) => {
  const owner = (await admin("account", "create", "--email", `e2e-staff-owner-${Date.now()}@example.com`)) as { sandbox_key: string };
  const id = await issue(owner.sandbox_key, "Globex Holidays Ltd");

  // A visitor reports it from the certificate.
  const visitor = await newClientContext(browser);
  const vp = await visitor.newPage();
  await vp.goto(`/r/${id}`);
  await vp.getByText("Report a problem with this record").click();
  await vp.getByLabel("What is wrong?").fill("They took a deposit for a flat that does not exist.");
  await vp.getByRole("button", { name: "Send report" }).click();
  await expect(vp.getByTestId("report-sent")).toBeVisible();

  // A reviewer sees the report and opens the record in the console.
  const ctx = await newClientContext(browser);
  const rp = await ctx.newPage();
  const email = `e2e-staff-rev-${Date.now()}@example.com`;
  await signUp(rp, email);
  await rp.goto("/signin?callbackUrl=%2Fdevelopers");
  await signInWithPassword(rp, email);
  await expect(rp).toHaveURL(/\/developers$/);
  const accountId = (await rp.locator("dd code").first().innerText()).trim();
  await admin("role", "grant", "--account", accountId, "--role", "reviewer");
  const errors = await collectBrowserErrors(rp);

  await rp.goto("/review/reports");
  const report = rp.locator(`[data-testid="report"][data-record="${id}"]`);
  await expect(report).toContainText("They took a deposit");
  await expect(report.getByTestId("report-staff-action")).toBeVisible();
  await report.getByTestId("open-record").click();
  await expect(rp).toHaveURL(new RegExp(`/review/${id}$`));
  await expect(rp.getByTestId("record-standing")).toHaveText("active");

  const form = rp.getByTestId("staff-action-form");
  const reason = "Reported as a fake holiday let; suspended while we investigate.";
  await form.getByLabel(/Public reason/).fill(reason);
  await shotBoth(rp, "staff-action-console");
  const suspend = form.getByTestId("staff-suspend");
  await hydrated(suspend);
  await suspend.click();
  await expect(rp.getByText("Record suspended")).toBeVisible();
  await expect(rp.getByTestId("record-standing")).toHaveText("suspended");
  await expect(rp.getByTestId("decisions")).toContainText("staff_suspend");
  await expect(rp.getByTestId("staff-reinstate")).toBeVisible();
  expect(errors).toEqual([]);

  // Anyone reading the certificate now sees who acted and why.
  await vp.goto(`/r/${id}`);
  await expect(vp.locator("main")).toHaveAttribute("data-status", "suspended");
  await expect(vp.getByTestId("status-actor")).toHaveText(`Suspended by Proof Records: ${reason}`);
  await expect(vp.getByTestId("history")).toContainText(`by staff: ${reason}`);
  await shotBoth(vp, "certificate-suspended-by-staff");

  await ctx.close();
  await visitor.close();
});
