import { expect, test } from "@playwright/test";
import { baseURL, hydrated, mailedLink, openConfirm, ownClientAddress, password, shot, shotBoth } from "./helpers";

// Each test comes from a client address of its own: the rate-limit test below starts with a
// fresh window whatever ran before it, and spends nobody else's. Clipboard access for the Copy buttons.
test.use({ baseURL, extraHTTPHeaders: ownClientAddress, permissions: ["clipboard-read", "clipboard-write"] });

test("sign up, confirm, sign in, manage keys", async ({ page }) => {
  const email = `e2e-${Date.now()}@example.com`;

  // Sign up — bad input first: a clear message, no 500.
  await page.goto("/signup");
  await shotBoth(page, "signup");
  await hydrated(page.getByRole("button", { name: "Create account" }));
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel(/^Password/).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await expect(page.getByText("at least 10 characters for your password")).toBeVisible();
  // The email typed stays, each message under its field; the password is never sent back.
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#email-error")).toHaveText(/Enter a valid email address/);
  await expect(page.locator("#password-error")).toHaveText(/at least 10 characters/);
  await expect(page.getByLabel(/^Password/)).toHaveValue("");
  await shotBoth(page, "signup-errors");

  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signup-done")).toBeVisible();
  const sandboxKey = (await page.getByTestId("secret-value").innerText()).trim();
  expect(sandboxKey).toMatch(/^prs_sandbox_[0-9A-Za-z]{32}$/);
  // The key shown once has a Copy button that puts exactly the key on the clipboard.
  const copyKey = page.getByRole("button", { name: "Copy sandbox API key" });
  await copyKey.click();
  await expect(copyKey).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sandboxKey);
  await shotBoth(page, "signup-done");

  // The same email again: refused with a clear message.
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("cannot be used for a new account")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email.toUpperCase());
  await expect(page.getByLabel(/^Password/)).toHaveValue("");
  await shotBoth(page, "signup-taken");

  // Confirm through the link in the mail the SMTP capture received.
  const link = await mailedLink(email, "/confirm");
  expect(link.startsWith(baseURL)).toBe(true);
  await page.goto(link);
  // Opening the link only asks; confirming sets the password and revokes what was made before (the sign-up's key too).
  await expect(page.getByTestId("confirm-email")).toHaveText(email);
  await expect(page.getByText("revokes what was made before this confirmation")).toBeVisible();
  await shotBoth(page, "confirm");
  await page.getByLabel(/^Your password/).fill(password);
  await page.getByRole("button", { name: "I created this account: confirm it" }).click();
  await expect(page.locator("#confirm-result")).toHaveText(/confirmed/);
  await shot(page, "confirm-done");
  await page.goto(link);
  await expect(page.locator("#confirm-result")).toHaveText(/already confirmed/);
  await page.goto("/confirm?token=acct_x.1.bad");
  await expect(page.locator("#confirm-result")).toHaveText(/not valid/);

  // The portal needs a session.
  await page.goto("/developers");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdevelopers/);
  await shotBoth(page, "signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("wrong password!");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("do not match an account")).toBeVisible();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/developers$/);
  await expect(page.getByTestId("email-status")).toHaveText("confirmed");

  // The sign-up key is listed by its prefix and last four characters; the secret itself is nowhere.
  const rows = page.getByTestId("key-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-prefix", "prs_sandbox_");
  await expect(rows.first().getByTestId("key-display")).toHaveText(`prs_sandbox_…${sandboxKey.slice(-4)}`);
  // Made before the confirmation, so revoked by it (whoever signed up may not hold the inbox), and the page says so.
  await expect(rows.first()).toContainText("revoked");
  await expect(page.getByTestId("revoked-at-confirmation")).toContainText("1 API key");
  expect(await page.content()).not.toContain(sandboxKey);
  await shotBoth(page, "developers");

  // A new sandbox key: shown once.
  await page.getByRole("button", { name: "Create sandbox key" }).click();
  const secret = (await page.getByTestId("secret-value").innerText()).trim();
  expect(secret).toMatch(/^prs_sandbox_[0-9A-Za-z]{32}$/);
  expect(secret).not.toBe(sandboxKey);
  const keyId = /\((key_[a-z0-9]+)\)/.exec(await page.getByTestId("once-secret").innerText())![1]!;
  await expect(rows).toHaveCount(2);
  // Two sandbox keys are told apart by their last four characters.
  await expect(page.locator(`[data-testid="key-row"][data-key-id="${keyId}"]`).getByTestId("key-display")).toHaveText(`prs_sandbox_…${secret.slice(-4)}`);
  const copyNew = page.getByRole("button", { name: "Copy sandbox API key" });
  await copyNew.click();
  await expect(copyNew).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shotBoth(page, "developers-new-key");

  // It works against the API, and is gone from the page after a reload.
  const usage = await page.request.get("/api/v1/usage", { headers: { Authorization: `Bearer ${secret}` } });
  expect(usage.status()).toBe(200);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("once-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // Revoking asks first: the first press only asks, Cancel (or Escape) goes back, nothing changes.
  const row = page.locator(`[data-testid="key-row"][data-key-id="${keyId}"]`);
  await openConfirm(row, /^Revoke/, "Yes, revoke");
  await expect(row.getByTestId("confirm-step")).toContainText("cannot be undone");
  await expect(row.getByRole("button", { name: "Cancel" })).toBeFocused();
  await shotBoth(page, "developers-revoke-confirm");
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row.getByTestId("confirm-step")).toHaveCount(0);
  await expect(row.getByRole("button", { name: /^Revoke/ })).toBeFocused();
  await openConfirm(row, /^Revoke/, "Yes, revoke");
  await page.keyboard.press("Escape");
  await expect(row.getByTestId("confirm-step")).toHaveCount(0);
  expect((await page.request.get("/api/v1/usage", { headers: { Authorization: `Bearer ${secret}` } })).status()).toBe(200);
  await expect(row).toContainText("active");
  // A post without the confirmation (the field stripped from the page) is refused by the server.
  await openConfirm(row, /^Revoke/, "Yes, revoke");
  await row.locator('input[name="confirm"]').evaluate((el) => ((el as HTMLInputElement).value = "no"));
  await row.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(row.getByRole("alert")).toContainText("Nothing was revoked");
  expect((await page.request.get("/api/v1/usage", { headers: { Authorization: `Bearer ${secret}` } })).status()).toBe(200);
  // Confirmed: marked revoked, refused by the API.
  await page.reload();
  await (await openConfirm(row, /^Revoke/, "Yes, revoke")).click();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  const refused = await page.request.get("/api/v1/usage", { headers: { Authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);

  // No plan: the live key button is disabled and says why.
  await expect(page.getByRole("button", { name: "Create live key" })).toBeDisabled();
  await expect(page.getByTestId("live-reason")).toContainText("plan");
  await shotBoth(page, "developers-revoked");
});

test("API catch-all does not shadow the auth routes", async ({ request }) => {
  const csrf = await request.get("/api/auth/csrf");
  expect(csrf.status()).toBe(200);
  expect(typeof (await csrf.json()).csrfToken).toBe("string");
  const providers = await (await request.get("/api/auth/providers")).json();
  expect(Object.keys(providers)).toEqual(["credentials", "magic-link"]);
  const unknown = await request.get("/api/nope");
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe("not_found");
});

test("sign-in and sign-up are rate limited per client address", async ({ page }) => {
  // This test's own client address starts with fresh windows: 10 attempts a minute are
  // answered, the 11th and later refused (AUTH_RATE_LIMIT_PER_MINUTE, default 10).
  await page.goto("/signin");
  const alert = page.locator("main [role=alert]");
  for (let i = 0; i < 12; i++) {
    await page.getByLabel("Email").fill(`nobody${i}@example.com`);
    await page.getByLabel("Password").fill("not the password");
    // The form clears its message when it sends, so the text checked is this attempt's answer.
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("/api/auth/callback/credentials")),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);
    await expect(alert, `sign-in attempt ${i + 1}`).toHaveText(i < 10 ? /do not match an account/ : /Too many sign-in attempts/);
  }
  await shot(page, "signin-rate-limited");

  await page.goto("/signup");
  for (let i = 0; i < 12; i++) {
    await page.getByLabel("Email").fill(`limit${i}@example`);
    await page.getByLabel(/^Password/).fill("x");
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.request().headers()["next-action"] !== undefined),
      page.getByRole("button", { name: "Create account", exact: true }).click(),
    ]);
    if (i === 0) await expect(page.getByText("Enter a valid email address")).toBeVisible(); // answered, not limited
  }
  await expect(alert).toHaveText(/Too many sign-up attempts/);
  await shot(page, "signup-rate-limited");
});
