import fs from "node:fs";
import { expect, test, type Browser } from "@playwright/test";
import { baseURL, mailDir, mailedLink, newClientContext, ownClientAddress, password, shot, shotBoth, signInWithPassword, signUp } from "./helpers";

// Each test (and each extra browser) comes from a client address of its own: no test spends another's rate-limit window.
test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

const newPage = async (browser: Browser) => (await newClientContext(browser)).newPage();

const mailsTo = (to: string) =>
  fs.readdirSync(mailDir).filter((f) => fs.readFileSync(`${mailDir}/${f}`, "utf8").startsWith(`X-Envelope-To: ${to}\r\n`));

test("magic link: request, open (a scanner's GET uses nothing), sign in once, confirms the address", async ({ page, browser }) => {
  const email = `e2e-link-${Date.now()}@example.com`;
  await signUp(page, email);

  await page.goto("/signin");
  await expect(page.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Forgot password?" })).toBeVisible();
  await shot(page, "signin-options");

  // No email yet: told to type one; nothing is sent.
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.locator("main [role=alert]")).toHaveText(/Enter your email address/);

  // An unknown address gets exactly the same answer as a real one, and no mail.
  const nobody = `e2e-nobody-${Date.now()}@example.com`;
  await page.getByLabel("Email").fill(nobody);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  const answerForUnknown = await page.locator("#link-sent").innerText();
  expect(answerForUnknown).toMatch(/^If an account exists for that address, we sent a sign-in link/);

  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.locator("#link-sent")).toHaveText(answerForUnknown);
  await shot(page, "signin-link-sent");

  const link = await mailedLink(email, "/signin/link");
  expect(link).toMatch(new RegExp(`^${baseURL}/signin/link\\?token=[A-Za-z0-9_-]{43}$`));
  expect(mailsTo(nobody)).toEqual([]);

  // A mail scanner fetching the link first uses nothing up.
  const scanned = await page.request.get(link);
  expect(scanned.status()).toBe(200);
  expect(await scanned.text()).toContain(email);

  await page.goto(link);
  await expect(page.getByTestId("link-email")).toHaveText(email);
  await expect(page.locator("#unconfirmed-warning")).toContainText("Using this link confirms it");
  // The token is in the URL: the page never sends it on as a Referer.
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  await shotBoth(page, "signin-link");
  // The same link open in another browser at the same time, not yet pressed.
  const other = await newPage(browser);
  await other.goto(link);
  await expect(other.getByRole("button", { name: "Sign in" })).toBeVisible();

  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/developers$/);
  // Signing in through the mailed link proved the inbox: the address is confirmed. It did not
  // prove who signed up, so what was made before (the sign-up key, the password) is revoked.
  await expect(page.getByTestId("email-status")).toHaveText("confirmed");
  await expect(page.getByTestId("revoked-at-confirmation")).toContainText("1 API key");
  await expect(page.getByTestId("key-row").first()).toContainText("revoked");
  await shot(page, "signin-link-revoked-before");

  // The second press of the same link is refused (the token is used) and signs nobody in.
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.locator("#link-result")).toHaveText(/already been used/);
  await other.goto("/developers");
  await expect(other).toHaveURL(/\/signin\?callbackUrl=%2Fdevelopers/);
  await other.context().close();

  // Opening it again says so at once.
  await page.goto(link);
  await expect(page.locator("#link-result")).toHaveText(/already been used/);
  await expect(page.getByRole("button", { name: "Sign in" })).toHaveCount(0);
  await shot(page, "signin-link-used");

  await page.goto("/signin/link?token=not-a-token");
  await expect(page.locator("#link-result")).toHaveText(/not valid/);
  await page.goto(`/signin/link?token=${"A".repeat(43)}`);
  await expect(page.locator("#link-result")).toHaveText(/not valid/);
});

test("password reset: new password works, old one is refused, link works once, old sessions end", async ({ page, browser }) => {
  const email = `e2e-reset-${Date.now()}@example.com`;
  const newPassword = "a brand new passphrase";
  await signUp(page, email);

  // A session signed in with the old password, elsewhere.
  const elsewhere = await newPage(browser);
  await elsewhere.goto("/signin");
  await signInWithPassword(elsewhere, email);
  await expect(elsewhere).toHaveURL(/\/developers$/);

  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await shotBoth(page, "reset-password-request");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.locator("#reset-sent")).toHaveText(/^If an account exists for that address, we sent a link to set a new password/);

  const link = await mailedLink(email, "/reset-password");
  expect(link).toMatch(new RegExp(`^${baseURL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
  expect((await page.request.get(link)).status()).toBe(200); // a scanner's GET

  await page.goto(link);
  await expect(page.getByTestId("reset-email")).toHaveText(email);
  // Same rules as sign-up.
  await page.getByLabel(/^New password/).fill("too short");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("Use at least 10 characters for your password.")).toBeVisible();
  await shotBoth(page, "reset-password");

  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/signin\?reset=1$/);
  await expect(page.locator("#reset-done")).toContainText("new password is set");
  await shot(page, "reset-password-done");

  // The old password no longer works; the new one does.
  await signInWithPassword(page, email, password);
  await expect(page.getByText("do not match an account")).toBeVisible();
  await signInWithPassword(page, email, newPassword);
  await expect(page).toHaveURL(/\/developers$/);

  // The session made with the old password has ended.
  await elsewhere.goto("/developers");
  await expect(elsewhere).toHaveURL(/\/signin\?callbackUrl=%2Fdevelopers/);
  await elsewhere.context().close();

  // The link is spent.
  await page.goto(link);
  await expect(page.locator("#reset-result")).toHaveText(/already been used/);
  await expect(page.getByRole("button", { name: "Set new password" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Email me a reset link" })).toBeVisible();
});

test("link requests are rate limited per client address and per email address", async ({ browser }) => {
  const victim = `e2e-flood-${Date.now()}@example.com`;
  const page = await newPage(browser);
  await page.goto("/reset-password");
  for (let i = 0; i < 10; i++) {
    await page.getByLabel("Email").fill(victim);
    await page.getByRole("button", { name: "Email me a reset link" }).click();
    await expect(page.locator("#reset-sent")).toBeVisible();
  }
  // The 11th from this address: refused.
  await page.getByLabel("Email").fill(`e2e-other-${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.locator("main [role=alert]")).toHaveText(/Too many requests from your address/);
  await page.context().close();

  // From a fresh address, the same inbox is still protected (sign-in links count too).
  const fresh = await newPage(browser);
  await fresh.goto("/signin");
  await fresh.getByLabel("Email").fill(victim);
  await fresh.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(fresh.locator("main [role=alert]")).toHaveText(/Too many links were requested for this address/);
  await shot(fresh, "signin-link-rate-limited");
  await fresh.context().close();
});
