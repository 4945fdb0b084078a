import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { mailTo } from "../tests/mail-capture";
import { startReceiver, waitFor } from "../tests/webhook-receiver";
import {
  admin, baseURL, callApi, confirmEmail, hydrated, issue, mailDir, mailedLink, newClientContext, ownClientAddress, password,
  goingLiveSection, requestPlan, shotBoth, signedUpPerson, signInOnPage, signUp, submitAction,
} from "./helpers";

/**
 * Issue 28, going live: a new customer signs up (and is signed in), confirms the address,
 * asks for a plan, an admin approves it in /admin (mail to both sides), then the customer
 * makes a live key, issues a live record and finds it in the records list. Also: a request
 * no admin may decide for itself, one pending request per account, an operator-made
 * account keeping its key at its first link sign-in, and the webhook test button.
 */
test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

const uniq = (tag: string) => `e2e-live-${tag}-${randomUUID().slice(0, 8)}@example.com`;

/** The newest mail to `to` whose subject matches, waiting for it (mails go out after the answer). */
const mailed = (to: string, subject: RegExp) => waitFor(() => mailTo(mailDir, to, subject), 15_000);

/** An admin in a browser of its own, made before any request here (admins are mailed of new requests). */
async function anAdmin(browser: Browser) {
  const boss = await signedUpPerson(browser, "live-admin");
  await admin("role", "grant", "--account", boss.accountId, "--role", "admin");
  return boss;
}

const goingLive = goingLiveSection;

test("a new customer signs up, goes live through an admin's approval and issues a live record", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const boss = await anAdmin(browser);
  try {
    const email = uniq("customer");
    // Signing up signs you in: the portal opens without the sign-in form.
    await signUp(page, email, password, { staySignedIn: true });
    await expect(page.getByTestId("signup-done")).toHaveAttribute("data-signed-in", "yes");
    await expect(page.getByRole("heading", { name: /you are signed in/ })).toBeVisible();
    await shotBoth(page, "going-live-signed-up");
    await page.getByTestId("continue-to-portal").click();
    await expect(page).toHaveURL(/\/developers$/);

    // What live needs, before anything is done: a confirmed address first.
    const section = goingLive(page);
    await expect(section.getByTestId("live-needs-email")).toHaveAttribute("data-ok", "no");
    await expect(section.getByTestId("live-needs-plan")).toHaveAttribute("data-ok", "no");
    await expect(section.getByTestId("plan-request-blocked")).toContainText("Confirm your email address first");
    await expect(section.getByRole("button", { name: "Request this plan" })).toBeDisabled();
    await shotBoth(page, "going-live-needs");
    // The button forced on and pressed anyway: the server refuses it the same way.
    const button = section.getByRole("button", { name: "Request this plan" });
    await hydrated(button);
    await button.evaluate((b) => ((b as HTMLButtonElement).disabled = false));
    await submitAction(page, button);
    await expect(section.locator("[role=alert]")).toContainText("Confirm your email address first");

    // Confirm (this ends the sign-up's session and revokes its key: a self sign-up stays protected), sign in again.
    await confirmEmail(page, email);
    await page.goto("/developers");
    await signInOnPage(page, email, /\/developers$/);
    const accountId = (await page.locator("dd code").first().innerText()).trim();
    await expect(section.getByTestId("live-needs-email")).toHaveAttribute("data-ok", "yes");

    // A second tab still showing the form: its request, sent after the first, is refused (one pending per account).
    const second = await page.context().newPage();
    await second.goto("/developers");
    await requestPlan(page, "starter", "Invoices for our marketplace sellers");
    // The page re-renders with the request's state in place of the form.
    await expect(section.getByTestId("plan-request-state")).toHaveAttribute("data-status", "pending");
    await requestPlan(second, "growth");
    await expect(goingLive(second).locator("[role=alert]")).toContainText("already have a request waiting");
    await second.close();
    await page.reload();
    await expect(section.getByTestId("plan-request-state")).toContainText("waiting for an admin");
    await expect(section.getByTestId("plan-request-form")).toHaveCount(0);
    await shotBoth(page, "going-live-pending");
    expect(await mailed(email, /We received your request for the starter plan/)).toContain("An admin reviews it");
    // Matched in the body: a long subject is folded across header lines.
    expect(await mailed(boss.email, new RegExp(`${email.replace(/[.+]/g, "\\$&")} \\(${accountId}\\) asks to go live on the starter plan`)))
      .toContain("Invoices for our marketplace sellers");

    // The admin sees it in /admin and approves it.
    await boss.page.goto("/admin");
    const row = boss.page.locator(`[data-testid="plan-request-row"][data-email="${email}"]`);
    await expect(row).toContainText("starter");
    await expect(row).toContainText("Invoices for our marketplace sellers");
    await shotBoth(boss.page, "going-live-admin");
    await submitAction(boss.page, row.getByRole("button", { name: `Approve the plan request of ${email}` }));
    await expect(boss.page.locator(`[data-testid="account-row"][data-email="${email}"]`)).toHaveAttribute("data-plan", "starter");
    await expect(row).toHaveCount(0);
    expect(await mailed(email, /Subject: Your plan request was approved/)).toContain("Create a live API key");

    // The customer is live: a live key, a live record through the API, both environments in the list.
    await page.reload();
    await expect(page.getByTestId("plan")).toHaveText("starter");
    await expect(section.getByTestId("plan-request-state")).toHaveAttribute("data-status", "approved");
    await expect(section.getByTestId("live-ready")).toBeVisible();
    const createLive = page.getByRole("button", { name: "Create live key" });
    await hydrated(createLive);
    await createLive.click();
    const liveKey = (await page.locator("#new-api-key").innerText()).trim();
    expect(liveKey).toMatch(/^prs_live_/);
    await shotBoth(page, "going-live-live-key");
    const liveId = await issue(liveKey, "Live Widgets Ltd");
    const sandboxKey = (await admin("key", "create", "--account", accountId, "--env", "sandbox")).key as string;
    const sandboxId = await issue(sandboxKey, "Sandbox Widgets Ltd");
    expect((await callApi("GET", `/api/v1/records/${liveId}`, liveKey)).body.environment).toBe("live");

    await page.goto("/records");
    const rowOf = (id: string) => page.locator(`[data-testid="record-row"][data-id="${id}"]`);
    await expect(page.getByTestId("filters").getByLabel("Environment")).toHaveValue("all");
    await expect(rowOf(liveId).getByTestId("record-environment")).toHaveText("live");
    await expect(rowOf(sandboxId).getByTestId("record-environment")).toHaveText("sandbox");
    await shotBoth(page, "going-live-records-all");
    await page.getByTestId("filters").getByLabel("Environment").selectOption("live");
    await page.getByTestId("filters").getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/environment=live/);
    await expect(rowOf(liveId)).toBeVisible();
    await expect(rowOf(sandboxId)).toHaveCount(0);
    await shotBoth(page, "going-live-records-live");
    await page.goto("/records?environment=sandbox");
    await expect(rowOf(sandboxId)).toBeVisible();
    await expect(rowOf(liveId)).toHaveCount(0);
  } finally {
    await boss.ctx.close();
  }
});

test("a customer cannot decide its own plan request; an admin declines it with a reason the customer sees", async ({ browser }) => {
  const boss = await anAdmin(browser);
  const c = await signedUpPerson(browser, "live-forger");
  try {
    await admin("account", "confirm-email", "--account", c.accountId);
    await c.page.reload();
    await requestPlan(c.page, "growth");
    await expect(goingLive(c.page).getByTestId("plan-request-state")).toHaveAttribute("data-status", "pending");

    // The admin's /admin page, rendered and working; the session under it swapped for the customer's.
    const adminSession = await boss.ctx.cookies();
    await boss.page.goto("/admin");
    const row = boss.page.locator(`[data-testid="plan-request-row"][data-email="${c.email}"]`);
    await expect(row).toBeVisible();
    await boss.ctx.clearCookies();
    await boss.ctx.addCookies(await c.ctx.cookies());
    await submitAction(boss.page, row.getByRole("button", { name: `Approve the plan request of ${c.email}` }));
    await expect(row.locator("[role=alert]")).toContainText("Only admins can decide plan requests");
    expect((await callApi("GET", "/api/v1/usage", c.key)).body.plan).toBe("none");
    expect((await c.page.goto("/admin"))!.status()).toBe(403);

    // With the admin's session back: decline needs a reason, which the customer sees and is mailed.
    await boss.ctx.clearCookies();
    await boss.ctx.addCookies(adminSession);
    await boss.page.reload();
    await row.getByLabel(`Reason for declining the plan request of ${c.email}`).fill("Tell us which marketplace you sell on first.");
    await submitAction(boss.page, row.getByRole("button", { name: "Decline" }));
    await expect(row).toHaveCount(0);
    await c.page.goto("/developers");
    const state = goingLive(c.page).getByTestId("plan-request-state");
    await expect(state).toHaveAttribute("data-status", "declined");
    await expect(state.getByTestId("plan-request-reason")).toHaveText("Tell us which marketplace you sell on first.");
    await expect(goingLive(c.page).getByTestId("plan-request-form")).toBeVisible(); // may ask again
    await shotBoth(c.page, "going-live-declined");
    expect(await mailed(c.email, /was declined/)).toContain("Reason: Tell us which marketplace you sell on first.");
  } finally {
    await boss.ctx.close();
    await c.ctx.close();
  }
});

test("an account the operator created signs in by mailed link and keeps its sandbox key", async ({ page }) => {
  const email = uniq("cli");
  const made = (await admin("account", "create", "--email", email)) as { account_id: string; sandbox_key: string };
  expect((await callApi("GET", "/api/v1/usage", made.sandbox_key)).status).toBe(200);
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  const ask = page.getByRole("button", { name: "Email me a sign-in link" });
  await hydrated(ask);
  await ask.click();
  await expect(page.locator("#link-sent")).toBeVisible();
  await page.goto(await mailedLink(email, "/signin/link"));
  // Nothing is revoked for an operator-made account, so there is nothing to warn of.
  await expect(page.locator("#unconfirmed-warning")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/developers$/);
  await expect(page.getByTestId("email-status")).toHaveText("confirmed");
  await expect(page.locator("#revoked-at-confirmation")).toHaveCount(0);
  const keyRow = page.getByTestId("key-row").first();
  await expect(keyRow).toContainText("active");
  await shotBoth(page, "going-live-cli-account");
  expect((await callApi("GET", "/api/v1/usage", made.sandbox_key)).status).toBe(200);
});

test("webhooks in the portal: the test button delivers to the endpoint and the delivery shows with its attempt", async ({ browser }) => {
  const rx = await startReceiver();
  const c = await signedUpPerson(browser, "live-webhook");
  try {
    const page = c.page;
    const section = page.locator("section", { has: page.getByRole("heading", { name: "Webhook destinations" }) });
    const ep = rx.endpoint(`going-live-${randomUUID().slice(0, 8)}`);
    await hydrated(section.getByRole("button", { name: "Add webhook destination" }));
    await section.getByLabel("Destination URL").fill(ep.url);
    await section.getByRole("button", { name: "Add webhook destination" }).click();
    ep.setSecret((await section.getByTestId("secret-value").innerText()).trim());
    const deliveries = section.getByTestId("webhook-deliveries");
    await expect(deliveries.getByTestId("no-deliveries")).toBeVisible();

    await submitAction(page, section.getByRole("button", { name: `Send a test event to ${ep.url}` }));
    await expect(section.getByTestId("webhook-test-sent")).toContainText("queued");
    const got = await waitFor(() => ep.received().find((r) => r.type === "webhook.test"), 15_000);
    expect(ep.rejected()).toBe(0); // signed with the endpoint's secret
    expect(got.body.data.webhook.url).toBe(ep.url);

    // The delivery and its attempt, as GET /api/v1/webhooks/{id}/deliveries answers them.
    await expect(async () => {
      await page.reload();
      await expect(deliveries.locator('[data-testid="delivery"][data-event-type="webhook.test"]')).toHaveAttribute("data-status", "succeeded", { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(deliveries.getByTestId("delivery-attempt").first()).toContainText("HTTP 204");
    await shotBoth(page, "going-live-webhook-deliveries");

    // Resend: the same event again, with the same webhook-id.
    await submitAction(page, deliveries.getByRole("button", { name: `Resend webhook.test ${got.id}` }));
    await expect(deliveries.getByTestId("delivery-replayed")).toContainText("same webhook-id");
    const again = await waitFor(() => ep.received().filter((r) => r.id === got.id)[1], 15_000);
    expect(again.duplicate).toBe(true);

    // Rotate the secret with an overlap: the new one is shown once; deliveries verify with either.
    const oldSecret = ep.secret();
    await page.reload();
    const rotate = section.getByTestId("webhook-rotate-form");
    await hydrated(rotate.getByRole("button", { name: `Rotate the signing secret of ${ep.url}` }));
    await rotate.getByLabel("Old secret stops").selectOption("3600");
    await submitAction(page, rotate.getByRole("button", { name: `Rotate the signing secret of ${ep.url}` }));
    const newSecret = (await section.getByTestId("secret-value").innerText()).trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await expect(section.getByText(/every delivery is signed with both secrets/)).toBeVisible();
    await shotBoth(page, "going-live-webhook-rotated");
    ep.setSecret(newSecret);
    await submitAction(page, section.getByRole("button", { name: `Send a test event to ${ep.url}` }));
    const afterRotation = await waitFor(() => ep.received().filter((r) => r.type === "webhook.test" && r.id !== got.id)[0], 15_000);
    expect(new Webhook(oldSecret!).verify(afterRotation.raw, afterRotation.headers as Record<string, string>)).toMatchObject({ type: "webhook.test" });
    await page.reload();
    await expect(section.getByTestId("webhook-rotation")).toContainText("old secret signs until");
  } finally {
    await c.ctx.close();
    await rx.close();
  }
});
