import { randomUUID } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import { mailTo } from "../tests/mail-capture";
import { uniqueIban } from "../tests/iban";
import {
  admin, baseURL, callApi as api, hydrated, mailDir, namedLiveAccount, ownClientAddress, password, recordIssuer, shotBoth, signInWithPassword, signedUpPerson,
} from "./helpers";

/**
 * Issue 39 through the console, in Chromium: a scammer's listing under a look-alike of a verified
 * organisation's name shows every fact to confirm with the risk signals and needs two reviewers;
 * staff take a whole account down in one action (records off green for strangers, keys and
 * sign-in refused, the owner told by mail) and lift it; the admin's audit trail lists each
 * action with its author and exports it. Screenshots at 1280 and 390 px.
 */

test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

const liveAccount = (name: string) => namedLiveAccount("console", name);

/** A staff member in a browser of their own, signed in. */
async function staffMember(browser: Browser, tag: string, role: "reviewer" | "admin") {
  const s = await signedUpPerson(browser, tag);
  await admin("role", "grant", "--account", s.accountId, "--role", role);
  return s;
}

test("a look-alike's listing shows every fact with its risk signals, and one reviewer cannot approve it", async ({ browser }) => {
  test.setTimeout(180_000);
  const tag = randomUUID().slice(0, 6);
  const legal = `Brightkettle ${tag} Lettings Ltd`;
  const real = await liveAccount(legal);
  await admin("organisation", "verify", "--account", real.accountId, "--legal-name", legal);

  // The scammer: another account whose look-alike name (one letter: l → i) got past an organisation check
  // on forged papers, with a domain it does control; its listing's IBAN and licence wait for a reviewer.
  const fake = legal.replace("Brightkettle", "Brightkettie");
  const scam = await liveAccount(fake);
  const host = `stays-${tag}.example.com`;
  const domainRecord = await scam.domain(host);
  await admin("organisation", "verify", "--account", scam.accountId, "--legal-name", fake, "--domains", host);
  const iban = uniqueIban();
  const listing = await scam.record({
    subject: fake, claim_type: "verified_listing", claim: `${fake} runs listing 88.`,
    evidence: {
      operator: fake, listing_url: `https://${host}/listing/88`, domain: host, domain_record: domainRecord,
      payee: { type: "iban", value: iban, account_name: fake }, licence: { authority: "Malta Tourism Authority", number: `HPI/${tag}` },
    },
  }, 202);

  const a = await staffMember(browser, "console-rev-a", "reviewer");
  await a.page.goto(`/review/${listing}`);
  const risk = a.page.getByTestId("risk-panel");
  await expect(risk).toHaveAttribute("data-level", "high");
  await expect(risk.locator('[data-code="verified_name"]').first()).toContainText(legal);
  await expect(risk.locator('[data-code="new_account"]')).toBeVisible();
  // Every fact the checklist asks about, beside the documents: operator, website, payee and its holder.
  await expect(a.page.locator('[data-field="evidence.operator"]').first()).toContainText(fake);
  await expect(a.page.locator('[data-field="evidence.payee.value"]').first()).toContainText(iban.slice(0, 4));
  await expect(a.page.locator('[data-field="evidence.payee.account_name"]').first()).toContainText(fake);
  await expect(a.page.locator('[data-field="evidence.listing_url"]').first()).toContainText(host);
  await expect(a.page.locator('[data-field="evidence.licence.number"]').first()).toContainText(`HPI/${tag}`);
  await shotBoth(a.page, "console-review-high-risk");

  const approveAs = async (page: typeof a.page) => {
    const form = page.getByTestId("approve-form");
    await hydrated(form.getByRole("button", { name: "Approve and issue" }));
    for (const box of await form.getByRole("checkbox").all()) await box.check();
    await form.getByRole("button", { name: "Approve and issue" }).click();
  };
  await approveAs(a.page);
  await expect(a.page.getByTestId("four-eyes")).toContainText("First approval by you");
  await expect(a.page.getByTestId("submission-status")).toContainText(/pending/i);
  // The same reviewer again: refused, nothing issued.
  await approveAs(a.page);
  await expect(a.page.getByRole("alert").filter({ hasText: "second reviewer" })).toBeVisible();
  expect((await api("GET", `/api/v1/records/${listing}/status`)).status).toBe(404);

  const b = await staffMember(browser, "console-rev-b", "reviewer");
  await b.page.goto(`/review/${listing}`);
  await expect(b.page.getByTestId("four-eyes")).toContainText(a.email);
  await approveAs(b.page);
  await expect(b.page.getByTestId("decided")).toContainText("approve");
  expect((await api("GET", `/api/v1/records/${listing}/status`)).body).toMatchObject({ status: "active" });
  await a.ctx.close();
  await b.ctx.close();
});

test("staff take a whole account down in one action, the owner is told and cannot get back in; staff lift it; the audit trail says who", async ({ browser }) => {
  test.setTimeout(180_000);
  // The owner signed up in a browser (a password), then went live.
  const owner = await signedUpPerson(browser, "console-owner");
  await admin("account", "confirm-email", "--account", owner.accountId);
  await admin("plan", "set", "--account", owner.accountId, "--plan", "growth");
  const liveKey = String((await admin("key", "create", "--account", owner.accountId, "--env", "live")).key);
  const { wallet } = recordIssuer(liveKey);
  const ids = [(await wallet()).id, (await wallet()).id];
  for (const id of ids) expect((await api("GET", `/api/v1/records/${id}/status`)).body).toMatchObject({ status: "active", verified: true });
  await owner.ctx.close();

  const rev = await staffMember(browser, "console-suspender", "reviewer");
  await rev.page.goto(`/review/accounts/${owner.accountId}`);
  await expect(rev.page.getByTestId("account-state")).toHaveAttribute("data-state", "active");
  await expect(rev.page.getByTestId("account-record")).toHaveCount(2);
  await shotBoth(rev.page, "console-account");
  const form = rev.page.getByTestId("account-action-form");
  await hydrated(form.getByTestId("account-suspend"));
  const reason = "Payments to these wallets were reported as fraud.";
  await form.getByTestId("account-reason").fill(reason);
  await form.getByTestId("confirm-suspend").check();
  await form.getByTestId("account-suspend").click();
  await expect(rev.page.getByTestId("account-action-done")).toHaveAttribute("data-records", "2");
  await expect(rev.page.getByTestId("account-state")).toHaveAttribute("data-state", "suspended");
  await shotBoth(rev.page, "console-account-suspended");

  // Strangers see every record off green at once, with staff's reason.
  for (const id of ids) expect((await api("GET", `/api/v1/records/${id}/status`)).body).toMatchObject({ status: "suspended", verified: false });
  await rev.page.goto(`/r/${ids[0]}`);
  await expect(rev.page.getByTestId("status-alert")).toContainText(reason);
  // The owner's key and sign-in are refused, with a clear message; the mail says why.
  expect((await api("GET", "/api/v1/account", liveKey)).body).toMatchObject({ error: { code: "account_suspended" } });
  const back = await browser.newContext({ baseURL });
  const page = await back.newPage();
  await page.goto("/signin");
  await signInWithPassword(page, owner.email, password);
  await expect(page.getByRole("alert").filter({ hasText: "suspended" })).toContainText("This account is suspended by Proof Records staff");
  await expect.poll(() => mailTo(mailDir, owner.email, /Subject: Your Proof Records account was suspended/) ?? "", { timeout: 15_000 }).toContain(reason);
  await back.close();

  await rev.page.goto(`/review/accounts/${owner.accountId}`);
  const lift = rev.page.getByTestId("account-action-form");
  await hydrated(lift.getByTestId("account-reinstate"));
  await lift.getByTestId("account-reason").fill("The reports were mistaken.");
  await lift.getByTestId("account-reinstate").click();
  await expect(rev.page.getByTestId("account-action-done")).toHaveAttribute("data-status", "active");
  for (const id of ids) expect((await api("GET", `/api/v1/records/${id}/status`)).body).toMatchObject({ status: "active", verified: true });
  expect((await api("GET", "/api/v1/account", liveKey)).status).toBe(200);
  await rev.ctx.close();

  // The admin's audit trail: each action with its author, and the CSV export.
  const boss = await staffMember(browser, "console-admin", "admin");
  await boss.page.goto(`/admin/audit?account=${owner.accountId}`);
  const rows = boss.page.getByTestId("audit-row");
  await expect(rows.filter({ hasText: "account.suspend" })).toHaveAttribute("data-staff", rev.email);
  await expect(rows.filter({ hasText: "account.reinstate" })).toHaveAttribute("data-staff", rev.email);
  await shotBoth(boss.page, "console-audit");
  const csv = await boss.page.request.get(`/admin/audit/export?account=${owner.accountId}`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const text = await csv.text();
  expect(text.split("\r\n")[0]).toBe("seq,at,staff_account_id,staff_email,action,subject_kind,subject_id,account_id,reason,before,after");
  expect(text).toContain(`account.suspend,account,${owner.accountId},${owner.accountId},${reason}`);
  // A reviewer is no admin: the export is refused.
  const rev2 = await staffMember(browser, "console-rev-csv", "reviewer");
  expect((await rev2.page.request.get("/admin/audit/export")).status()).toBe(403);
  await rev2.ctx.close();
  await boss.ctx.close();
});
