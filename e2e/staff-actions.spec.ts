import { expect, test } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { admin, baseURL, collectBrowserErrors, hydrated, issue, newClientContext, setDns, shotBoth, signInWithPassword, signUp } from "./helpers";

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

/**
 * Take-downs keep warning (issue 38, item 11), as a stranger sees it: staff revoke a scam
 * shop's domain record; the home box and /check then answer that value in red — "Proof
 * Records took a record with this … down" — not a grey "nothing on record".
 */
test("a value whose record staff took down stays a red warning in the home box and at /check", async ({ browser }) => {
  const made = (await admin("account", "create", "--email", `e2e-takedown-${Date.now()}@example.com`)) as { account_id: string };
  await admin("account", "confirm-email", "--account", made.account_id);
  await admin("plan", "set", "--account", made.account_id, "--plan", "growth");
  const key = String((await admin("key", "create", "--account", made.account_id, "--env", "live")).key);
  const domain = `bargain-flats-${Date.now()}.example.com`;
  const api = async (p: string, body: unknown) => (await fetch(`${baseURL}${p}`, {
    method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() }, body: JSON.stringify(body),
  })).json();
  const c = await api("/api/v1/domain-challenges", { domain });
  setDns(c.txt_name, [c.txt_value]);
  const rec = await api("/api/v1/records", { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.id } });
  expect(rec.status).toBe("active");
  const reason = "Reported by three renters: deposits taken for flats that do not exist.";
  await admin("record", "revoke", "--id", rec.verification_id, "--reason", reason);

  const ctx = await newClientContext(browser);
  const page = await ctx.newPage();
  await page.goto("/");
  await page.getByLabel("A company name or LEI, record id, IBAN, wallet, website or listing link").fill(`https://${domain}/flat/12`);
  await page.getByRole("button", { name: "Look it up" }).click();
  const warning = page.getByTestId("taken-down");
  await expect(warning).toContainText("Proof Records took a record with this");
  await expect(warning).toContainText(reason);
  await expect(page.getByTestId("lookup-headline")).toContainText("taken down");
  await shotBoth(page, "home-taken-down");
  // On a phone the warning is the first thing under the box.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = (await warning.boundingBox())!;
  expect(box.y).toBeLessThan(844);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto(`/check?${new URLSearchParams({ website: domain })}`);
  await expect(page.getByTestId("check-overall")).toHaveAttribute("data-verdict", "mismatch");
  await expect(page.getByTestId("check-overall")).toContainText(reason);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "mismatch");
  await shotBoth(page, "check-taken-down");
  await ctx.close();
});
