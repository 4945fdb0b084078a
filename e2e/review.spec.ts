import { randomUUID } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import { admin, baseURL, hydrated, newClientContext, shot, shotBoth, signInWithPassword, signUp } from "./helpers";

/** A browser of its own (own cookies, own client address for the rate limit), signed up and signed in. */
async function person(browser: Browser, tag: string) {
  const ctx = await newClientContext(browser);
  const page = await ctx.newPage();
  const email = `e2e-${tag}-${Date.now()}@example.com`;
  const key = await signUp(page, email);
  await page.goto("/signin?callbackUrl=%2Fdevelopers");
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/developers$/);
  const accountId = (await page.locator("dd code").first().innerText()).trim();
  expect(accountId).toMatch(/^acct_/);
  return { ctx, page, email, key, accountId };
}

async function api(method: string, p: string, key?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body) Object.assign(headers, { "Content-Type": "application/json", "Idempotency-Key": randomUUID() });
  const r = await fetch(`${baseURL}${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: await r.json() };
}

/** The spec's "any other claim_type" row: source named by the customer, 202 pending_review. */
async function submit(key: string, claimType: string, subject: string) {
  const r = await api("POST", "/api/v1/records", key, {
    subject, claim_type: claimType, claim: `${subject} holds trade licence 42.`, visibility: "public",
    source_name: "City trade register", source_url: "https://register.example.gov/licences/42",
    checked_at: new Date().toISOString(), evidence_level: "evidence_verified",
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  expect(r.body.status).toBe("pending_review");
  return r.body.verification_id as string;
}

test("generic claim: API 202 → reviewer approves one, rejects one, a second reviewer sees the conflict → customer and certificate show it", async ({ browser }) => {
  const claimType = `trade_licence_e2e_${Date.now()}`;
  const customer = await person(browser, "cust");
  const first = await submit(customer.key, claimType, "Acme Trading Ltd");
  const second = await submit(customer.key, claimType, "Bogus Trading Ltd");
  const third = await submit(customer.key, claimType, "Raced Trading Ltd");

  // A customer cannot open the reviewer queue or the admin console: 403.
  const denied = await customer.page.goto("/review");
  expect(denied!.status()).toBe(403);
  await expect(customer.page.getByTestId("forbidden")).toBeVisible();
  await shotBoth(customer.page, "review-forbidden");
  expect((await customer.page.goto(`/review/${first}`))!.status()).toBe(403);
  expect((await customer.page.goto("/admin"))!.status()).toBe(403);
  await expect(customer.page.getByRole("link", { name: "Review" })).toHaveCount(0);

  // Without a session: to sign-in.
  const anon = await browser.newContext({ baseURL });
  const anonPage = await anon.newPage();
  await anonPage.goto("/review");
  await expect(anonPage).toHaveURL(/\/signin\?callbackUrl=%2Freview/);
  await anon.close();

  const reviewer = await person(browser, "rev");
  await admin("role", "grant", "--account", reviewer.accountId, "--role", "reviewer");
  const rp = reviewer.page;
  await rp.goto("/review");
  await expect(rp.getByRole("link", { name: "Review" })).toBeVisible();
  // Sandbox submissions (these are a sandbox key's) are never in the live queue nor its counts: they have their own tab.
  await expect(rp.getByTestId("queue-tab-live")).toHaveAttribute("aria-current", "page");
  await expect(rp.locator(`[data-testid="queue-count"][data-claim-type="${claimType}"]`)).toHaveCount(0);
  await rp.getByTestId("queue-tab-sandbox").click();
  await expect(rp).toHaveURL(/\/review\?env=sandbox$/);
  await expect(rp.getByTestId("sandbox-queue-note")).toBeVisible();
  await expect(rp.locator(`[data-testid="queue-count"][data-claim-type="${claimType}"]`)).toHaveAttribute("data-count", "3");

  // Filter by claim type: oldest first.
  await rp.getByLabel("Claim type").selectOption(claimType);
  await rp.getByRole("button", { name: "Filter" }).click();
  await expect(rp).toHaveURL(new RegExp(`env=sandbox&claim_type=${claimType}`));
  const rows = rp.getByTestId("queue-row");
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-id")))).toEqual([first, second, third]);
  await expect(rows.first()).toContainText(customer.email);
  // Sandbox submissions have no review target: no "due in", never "overdue".
  await expect(rows.first()).not.toContainText("due in");
  // The table fits its box at 1280 px: no horizontal scrolling, no column past the header's edge.
  const queue = rp.getByTestId("queue");
  expect(await queue.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
  const [tableBox, mainBox] = [await queue.boundingBox(), await rp.getByTestId("portal-main").boundingBox()];
  expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(mainBox!.x + mainBox!.width);
  await shotBoth(rp, "review-queue");

  // Open the oldest: evidence, customer, checklist.
  await rows.first().getByRole("link", { name: first }).click();
  await expect(rp).toHaveURL(new RegExp(`/review/${first}$`));
  await expect(rp.getByTestId("source-name")).toHaveText("City trade register");
  const link = rp.getByTestId("source-url");
  await expect(link).toHaveAttribute("href", "https://register.example.gov/licences/42");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await expect(rp.getByTestId("customer")).toContainText(customer.email);
  await expect(rp.getByTestId("rerun-form")).toHaveCount(0); // no connector for this claim type
  await shotBoth(rp, "review-submission");

  // Approving needs every checklist item. The refusal names the missing items by the labels
  // shown (not their keys), under the checklist; the ticked box and the notes stay.
  const approve = rp.getByTestId("approve-form");
  await hydrated(approve.getByRole("button", { name: "Approve and issue" }));
  const boxes = approve.getByRole("checkbox");
  const labels = await approve.locator("fieldset label span").allInnerTexts();
  const keys = await boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  await boxes.first().check();
  await approve.getByLabel(/Notes/).fill("First item seen; rest pending.");
  await approve.getByRole("button", { name: "Approve and issue" }).click();
  const refusal = approve.getByRole("alert");
  await expect(refusal).toContainText(/Approval needs every checklist item; not ticked/);
  for (const label of labels.slice(1)) await expect(refusal).toContainText(label.replace(/\.$/, ""));
  await expect(refusal).not.toContainText(labels[0]!.replace(/\.$/, ""));
  for (const key of keys) await expect(refusal).not.toContainText(key);
  await expect(boxes.first()).toBeChecked();
  for (let i = 1; i < keys.length; i++) await expect(boxes.nth(i)).not.toBeChecked();
  await expect(approve.getByLabel(/Notes/)).toHaveValue("First item seen; rest pending.");
  await expect(approve.locator("fieldset")).toHaveAttribute("aria-describedby", /.+/);
  await expect(rp.getByTestId("submission-status")).toContainText(/pending/i);
  await shotBoth(rp, "review-checklist-refused");
  for (const box of await approve.getByRole("checkbox").all()) await box.check();
  await approve.getByLabel(/Notes/).fill("Register entry 42 seen, active.");
  await approve.getByRole("button", { name: "Approve and issue" }).click();
  await expect(rp.getByTestId("decided")).toContainText("active");
  await expect(rp.getByTestId("decided")).toContainText(`approve by ${reviewer.email}`);
  await expect(rp.getByTestId("submission-status")).toContainText(/active/i);
  await expect(rp.getByTestId("decisions")).toContainText("approve");
  await expect(rp.getByTestId("decisions")).toContainText("Register entry 42 seen");

  // Reject the second, with the reason the customer will see.
  await rp.goto(`/review/${second}`);
  const reject = rp.getByTestId("reject-form");
  await reject.getByLabel(/Reason/).fill("The register lists no licence for Bogus Trading Ltd.");
  await reject.getByRole("button", { name: "Reject" }).click();
  await expect(rp.getByTestId("decided")).toContainText("rejected");

  // Two reviewers on the third at once: the first decision wins, the other sees a clear conflict.
  const other = await person(browser, "rev2");
  await admin("role", "grant", "--account", other.accountId, "--role", "reviewer");
  await rp.goto(`/review/${third}`);
  await other.page.goto(`/review/${third}`);
  await reject.getByLabel(/Reason/).fill("Source does not load.");
  await rp.getByTestId("reject-form").getByRole("button", { name: "Reject" }).click();
  await expect(rp.getByTestId("decided")).toContainText("rejected");
  const otherApprove = other.page.getByTestId("approve-form");
  for (const box of await otherApprove.getByRole("checkbox").all()) await box.check();
  await otherApprove.getByRole("button", { name: "Approve and issue" }).click();
  await expect(other.page.locator("#review-conflict")).toContainText("already decided");
  await expect(other.page.locator("#review-conflict")).toContainText("rejected");
  await shot(other.page, "review-conflict");

  // The queue no longer holds them.
  await rp.goto(`/review?env=sandbox&claim_type=${claimType}`);
  await expect(rp.getByTestId("queue-empty")).toBeVisible();

  // The customer sees both outcomes, through the API and in the portal.
  const ok = await api("GET", `/api/v1/records/${first}`, customer.key);
  expect(ok.body).toMatchObject({ status: "active", evidence_level: "evidence_verified", review: null });
  expect(ok.body.lifecycle.history.map((h: { by: string }) => h.by)).toEqual(["owner", "reviewer"]);
  const no = await api("GET", `/api/v1/records/${second}`, customer.key);
  expect(no.body).toMatchObject({ status: "rejected", review: { reason: "The register lists no licence for Bogus Trading Ltd." }, certificate_url: null });
  await customer.page.goto(`/records/${second}`);
  await expect(customer.page.getByTestId("review-outcome")).toHaveText("The register lists no licence for Bogus Trading Ltd.");
  await customer.page.goto(`/records/${first}`);
  await expect(customer.page.getByTestId("record-status")).toContainText(/active/i);

  // Public: the approved record's certificate and signed status; the rejected one does not exist.
  expect((await api("GET", `/api/v1/records/${first}/status`)).body).toMatchObject({ status: "active", evidence_level: "evidence_verified" });
  expect((await api("GET", `/api/v1/records/${second}/status`)).status).toBe(404);
  await customer.page.goto(`/r/${first}`);
  await expect(customer.page.getByText("Acme Trading Ltd").first()).toBeVisible();
  await expect(customer.page.getByTestId("status-badge").first()).toContainText(/active/i);
  await shot(customer.page, "review-certificate");
  await customer.ctx.close();
  await reviewer.ctx.close();
  await other.ctx.close();
});

test("admin console: set a plan, grant reviewer, rotate the signing key; reviewers cannot open it", async ({ browser }) => {
  const target = await person(browser, "target");
  const boss = await person(browser, "admin");
  await admin("role", "grant", "--account", boss.accountId, "--role", "reviewer");
  expect((await boss.page.goto("/admin"))!.status()).toBe(403);
  await admin("role", "grant", "--account", boss.accountId, "--role", "admin");

  const p = boss.page;
  await p.goto(`/admin?q=${encodeURIComponent(target.email)}`);
  const row = p.locator(`[data-testid="account-row"][data-email="${target.email}"]`);
  await expect(row).toHaveAttribute("data-plan", "none");
  await row.getByLabel("Plan").selectOption("starter");
  await row.getByRole("button", { name: "Set plan" }).click();
  await expect(row.getByTestId("plan-form").getByRole("status")).toContainText("starter");
  // The dropdown shows the plan just set (not the one before), without a reload.
  await expect(row).toHaveAttribute("data-plan", "starter");
  await expect(row.getByLabel("Plan")).toHaveValue("starter");
  await row.getByLabel("Role").selectOption("reviewer");
  await row.getByRole("button", { name: "Set role" }).click();
  await expect(row.getByTestId("role-form").getByRole("status")).toContainText("reviewer");
  await expect(row.getByLabel("Role")).toHaveValue("reviewer");
  await expect(row.getByLabel("Plan")).toHaveValue("starter");
  await p.reload();
  await expect(row).toHaveAttribute("data-plan", "starter");
  await expect(row).toHaveAttribute("data-role", "reviewer");
  // The target now has the reviewer queue and a plan.
  expect((await target.page.goto("/review"))!.status()).toBe(200);
  await target.page.goto("/developers");
  await expect(target.page.getByTestId("plan")).toHaveText("starter");

  // Rotate: a new active key, the old one still published.
  const before = (await api("GET", "/.well-known/jwks.json")).body.keys.map((k: { kid: string }) => k.kid);
  const rotate = p.getByTestId("rotate-form");
  await rotate.getByRole("checkbox").check();
  await rotate.getByRole("button", { name: "Rotate signing key" }).click();
  await expect(rotate.getByRole("status")).toContainText("New active signing key");
  const kid = /key (prs-[0-9]{8}-[0-9a-f]{8})/.exec(await rotate.getByRole("status").innerText())![1]!;
  const after = (await api("GET", "/.well-known/jwks.json")).body.keys.map((k: { kid: string }) => k.kid);
  expect(after).toEqual([...before, kid]);
  await p.reload();
  await expect(p.locator(`[data-testid="signing-key"][data-kid="${kid}"]`)).toHaveAttribute("data-active", "yes");
  // New records are signed with it.
  const rec = await api("POST", "/api/v1/records", target.key, { subject: "Rotated Ltd", claim_type: "company_status", claim: "Rotated Ltd is active.", visibility: "public" });
  expect(rec.body.integrity.signing_key_id).toBe(kid);
  await shotBoth(p, "admin");
  await target.ctx.close();
  await boss.ctx.close();
});
