import { expect, test, type Page } from "@playwright/test";
import { admin, baseURL, collectBrowserErrors, confirmEmail, issue, signInWithPassword, signUp } from "./helpers";

/**
 * The Content-Security-Policy (proxy.ts) against a real browser: every main page loads and
 * runs Next's scripts without a single violation, and the policy is really enforced (an
 * injected inline handler is refused). The wallet flow under the same policy is in
 * proofs.spec.ts, which fails on any violation too.
 */

test.use({ baseURL });

/** Open `path`: an answer with a nonce CSP, and Next's client runtime ran (its scripts were allowed). */
async function openUnderCsp(page: Page, errors: string[], path: string, status = 200) {
  const res = await page.goto(path);
  expect(res!.status(), path).toBe(status);
  const csp = (await res!.allHeaders())["content-security-policy"] ?? "";
  expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  await page.waitForFunction(() => (window as unknown as { next?: { appDir?: boolean } }).next?.appDir === true, undefined, { timeout: 15_000 })
    .catch(() => { throw new Error(`${path}: Next's scripts did not run. Browser errors:\n${errors.join("\n")}`); });
}

test("public, portal, reviewer and admin pages run under the CSP with no violation", async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": "10.97.0.1" } });
  const page = await ctx.newPage();
  const errors = await collectBrowserErrors(page);

  // Sign-up, confirmation and sign-in forms are client components posting server actions.
  const email = `e2e-csp-${Date.now()}@example.com`;
  await signUp(page, email);
  await confirmEmail(page, email); // revokes the sign-up's key: a new one below
  await openUnderCsp(page, errors, "/signin?callbackUrl=%2Fdevelopers");
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/developers$/);
  const accountId = (await page.locator("dd code").first().innerText()).trim();
  await admin("role", "grant", "--account", accountId, "--role", "reviewer");
  await admin("role", "grant", "--account", accountId, "--role", "admin");
  const key = (await admin("key", "create", "--account", accountId, "--env", "sandbox")).key as string;
  const id = await issue(key, "Strict Policy Ltd");

  for (const path of ["/", "/signup", "/reset-password", "/developers", "/records", `/records/${id}`, "/proofs", "/review", "/admin", `/r/${id}`]) {
    await openUnderCsp(page, errors, path);
  }
  await openUnderCsp(page, errors, "/no-such-page", 404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  // The browser logs the 404 status itself; that line is the page asked for, not a refusal.
  const notFoundLine = errors.findIndex((e) => e.includes("status of 404") && e.endsWith("/no-such-page"));
  expect(notFoundLine).toBeGreaterThanOrEqual(0);
  errors.splice(notFoundLine, 1);

  // Client-side navigation (a next/link click fetches the next page's payload) stays clean.
  await openUnderCsp(page, errors, "/");
  await page.getByRole("link", { name: "Developer portal" }).click();
  await expect(page).toHaveURL(/\/developers$/);
  await page.getByRole("link", { name: "Proofs", exact: true }).click();
  await expect(page).toHaveURL(/\/proofs$/);
  await expect(page.getByTestId("no-wallet")).toBeVisible(); // the wallet island hydrated

  expect(errors).toEqual([]);
  await ctx.close();
});

test("the browser enforces it: an injected inline event handler is refused and reported", async ({ page }) => {
  const errors = await collectBrowserErrors(page);
  await openUnderCsp(page, errors, "/");
  await page.evaluate(() => {
    const div = document.createElement("div");
    div.innerHTML = `<img src="/no-such-image" onerror="window.__prsInjected = true">`;
    document.body.append(div);
  });
  await expect.poll(() => errors.some((e) => e.startsWith("csp violation: script-src-attr"))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __prsInjected?: boolean }).__prsInjected)).toBeUndefined();
});
