import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { adminViaServer } from "../tests/admin-client";
import { setDnsEntry, type DnsEntry } from "../tests/dns-server";
import { decodeQp, mailedLinkIn } from "../tests/mail-capture";

/** Shared steps of the e2e specs. The global setup exports where the server and its mail are. */
export const baseURL = process.env.PRS_E2E_BASE_URL!;
export const mailDir = process.env.PRS_E2E_MAIL_DIR!;
export const password = "correct horse battery";

const usedAddresses = new Set<string>();

/**
 * A client address (sent as X-Forwarded-For; the e2e server runs with TRUST_PROXY=1) that no
 * other test or browser context of this run uses, so one test's sign-ins and sign-ups never
 * spend another's rate-limit window, whatever order or timing the tests run in.
 */
export function freshClientAddress(): string {
  for (;;) {
    const [a, b, c] = randomBytes(3);
    const ip = `10.${a}.${b}.${c}`;
    if (!usedAddresses.has(ip)) {
      usedAddresses.add(ip);
      return ip;
    }
  }
}

/**
 * For `test.use({ extraHTTPHeaders: ownClientAddress })`: evaluated per test, so every test's
 * own `page`/`request` comes from an address of its own.
 */
export const ownClientAddress = async ({}, use: (h: Record<string, string>) => Promise<void>) =>
  use({ "x-forwarded-for": freshClientAddress() });

/** Another browser (own cookies) from a client address of its own. */
export const newClientContext = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": freshClientAddress() } });

/**
 * Screenshots are for people looking at pages (`SCREENSHOTS=1 npm test`, then open
 * e2e/screenshots/), not for the suite: no assertion reads them, and each full-page one costs
 * a layout and an encode. Without SCREENSHOTS=1 `shot` and `shotBoth` take none; every
 * assertion around them runs either way.
 */
export const screenshotsWanted = process.env.SCREENSHOTS === "1";
export const shotsDir = path.join(import.meta.dirname, "screenshots");
if (screenshotsWanted) fs.mkdirSync(shotsDir, { recursive: true });
export const shot = async (page: Page, name: string) => {
  if (screenshotsWanted) await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
};

/**
 * The page at 1280 px (`<name>.png`) and at a phone's 390 px (`<name>-390.png`), full
 * length; the viewport is put back afterwards.
 */
export async function shotBoth(page: Page, name: string) {
  if (!screenshotsWanted) return;
  const before = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 1280, height: before.height });
  await shot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`);
  await page.setViewportSize(before);
}

/**
 * The first step of a two-step destructive form (components/confirm-action.tsx): press
 * `trigger` once React has hydrated it; answers the confirm button that then appears.
 */
export async function openConfirm(scope: Locator, trigger: string | RegExp, confirm: string): Promise<Locator> {
  const button = scope.getByRole("button", { name: trigger });
  await hydrated(button);
  await button.click();
  const yes = scope.getByRole("button", { name: confirm });
  await expect(yes).toBeVisible();
  return yes;
}

/**
 * Browser errors on `page`, collected for the test to assert on: uncaught exceptions,
 * console errors (a refused script or style is one), warnings about the security headers,
 * and every Content-Security-Policy violation the page reports (its
 * `securitypolicyviolation` event), so a refusal fails the test however the browser words
 * or levels its console message.
 */
export async function collectBrowserErrors(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()} ${m.location().url}`);
    // Chromium warns (not errs) about a header it cannot apply, e.g. an unknown Permissions-Policy feature.
    if (m.type() === "warning" && /Permissions-Policy|Content[- ]Security[- ]Policy/i.test(m.text())) errors.push(`console warning: ${m.text()}`);
  });
  await page.exposeFunction("__prsCspViolation", (v: string) => errors.push(`csp violation: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __prsCspViolation: (v: string) => void }).__prsCspViolation;
      void report(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} on ${e.documentURI}`);
    });
  });
  return errors;
}

export { decodeQp };

/**
 * The newest link to `pathname` (e.g. "/confirm") in a mail the SMTP capture received for
 * `to`, skipping links in `seen`. Waits up to 15 s: some mails go out after the answer.
 */
export async function mailedLink(to: string, pathname: string, seen: Iterable<string> = []): Promise<string> {
  const skip = new Set(seen);
  return mailedLinkIn(mailDir, to, pathname, (link) => skip.has(link));
}

/**
 * Sign up through the form; returns the sandbox key shown once. Signing up signs the browser
 * in; unless `staySignedIn`, the session is dropped again (the cookies cleared), since most
 * specs go on to sign in themselves.
 */
export async function signUp(page: Page, email: string, pw = password, opts: { staySignedIn?: boolean } = {}): Promise<string> {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(pw);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signup-done")).toBeVisible();
  const key = (await page.getByTestId("secret-value").innerText()).trim();
  if (!opts.staySignedIn) await page.context().clearCookies();
  return key;
}

/** Fill and send the sign-in form on the current /signin page. */
export async function signInWithPassword(page: Page, email: string, pw = password) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(pw);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The confirmation link in the mail the SMTP capture received for `to`. */
export const confirmationLink = (to: string) => mailedLink(to, "/confirm");

/**
 * Open the link from the confirmation mail and confirm with the account's password (opening it
 * alone confirms nothing). Confirming revokes what was made before it — the sign-up's sandbox
 * key included — and ends earlier sessions: get a key afterwards (`sandboxKeyOf`).
 */
export async function confirmEmail(page: Page, email: string, pw = password) {
  const link = await confirmationLink(email);
  expect(link.startsWith(baseURL)).toBe(true);
  await page.goto(link);
  await page.getByLabel(/^Your password/).fill(pw);
  await page.getByRole("button", { name: "I created this account: confirm it" }).click();
  await expect(page.locator("#confirm-result")).toHaveText(/confirmed/);
}

/** A new sandbox key of the signed-in account on `page` (read from /developers), made by the operator CLI. */
export async function sandboxKeyOf(page: Page): Promise<string> {
  await page.goto("/developers");
  const accountId = (await page.locator("dd code").first().innerText()).trim();
  expect(accountId).toMatch(/^acct_/);
  return (await admin("key", "create", "--account", accountId, "--env", "sandbox")).key as string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Open `target` without a session, sign in on the page it sends us to, land on `target`. */
export async function signIn(page: Page, email: string, target: string) {
  await page.goto(target);
  await expect(page).toHaveURL(new RegExp(`/signin\\?callbackUrl=${escapeRe(encodeURIComponent(target))}`));
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(new RegExp(`${escapeRe(target)}$`));
}

/** Publish (or with null, remove) a name in the e2e server's loopback DNS (tests/dns-server.ts). */
export function setDns(name: string, entry: DnsEntry | null) {
  setDnsEntry(process.env.PRS_E2E_DNS_ZONE!, name, entry);
}

/** On the sign-in page (e.g. after a redirect): sign in and land on `expectUrl`. */
export async function signInOnPage(page: Page, email: string, expectUrl: RegExp) {
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(expectUrl);
}

/** Issued through the API from the test process (not the browser), with the sandbox key. */
export async function issue(key: string, subject: string): Promise<string> {
  const r = await fetch(`${baseURL}/api/v1/records`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({ subject, claim_type: "company_status", claim: `${subject} is an active company.`, visibility: "public" }),
  });
  const body = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(201);
  return body.verification_id as string;
}

/** The API from the test process, with `key` if given; a body goes as JSON under a fresh Idempotency-Key. */
export async function callApi(method: string, p: string, key?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body) Object.assign(headers, { "Content-Type": "application/json", "Idempotency-Key": randomUUID() });
  const r = await fetch(`${baseURL}${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: await r.json() };
}

/** A browser of its own (own cookies, own client address), signed up and signed in on /developers. */
export async function signedUpPerson(browser: Browser, tag: string) {
  const ctx = await newClientContext(browser);
  const page = await ctx.newPage();
  const email = `e2e-${tag}-${randomUUID().slice(0, 8)}@example.com`;
  const key = await signUp(page, email);
  await page.goto("/signin?callbackUrl=%2Fdevelopers");
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/developers$/);
  const accountId = (await page.locator("dd code").first().innerText()).trim();
  return { ctx, page, email, key, accountId };
}

/**
 * A confirmed account on the growth plan with a live key, made by the operator commands (no
 * browser): `tag` goes into its email address.
 */
export async function liveCustomerAccount(tag: string): Promise<{ accountId: string; liveKey: string; sandboxKey: string }> {
  const a = await admin("account", "create", "--email", `e2e-${tag}-${randomUUID().slice(0, 8)}@example.com`);
  const accountId = String(a.account_id);
  await admin("account", "confirm-email", "--account", accountId);
  await admin("plan", "set", "--account", accountId, "--plan", "growth");
  const liveKey = String((await admin("key", "create", "--account", accountId, "--env", "live")).key);
  return { accountId, liveKey, sandboxKey: String(a.sandbox_key) };
}

/**
 * Records issued through the API with `key`, from the test process: any record (`status` is
 * the answer expected), a domain record (its challenge's TXT record published in the loopback
 * DNS) and a wallet record (a fresh key signs the challenge).
 */
export function recordIssuer(key: string) {
  const record = async (body: Record<string, unknown>, status = 201) => {
    const r = await callApi("POST", "/api/v1/records", key, { visibility: "public", ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body.verification_id as string;
  };
  const domain = async (host: string) => {
    const c = (await callApi("POST", "/api/v1/domain-challenges", key, { domain: host })).body;
    setDns(c.txt_name, [c.txt_value]);
    return record({ subject: host, claim_type: "domain_ownership", claim: `Controls ${host}.`, evidence: { challenge_id: c.id } });
  };
  const wallet = async () => {
    const acct = privateKeyToAccount(generatePrivateKey());
    const c = (await callApi("POST", "/api/v1/wallet-challenges", key, { address: acct.address, network: "ethereum" })).body;
    const signature = await acct.signMessage({ message: c.message });
    const id = await record({ subject: acct.address, claim_type: "wallet_ownership", claim: "Controls the wallet.", evidence: { challenge_id: c.id, signature } });
    return { id, address: acct.address };
  };
  return { record, domain, wallet };
}

/** A live customer (liveCustomerAccount) that calls itself `name`, with its live key's recordIssuer. */
export async function namedLiveAccount(tag: string, name: string) {
  const a = await liveCustomerAccount(tag);
  expect((await callApi("PATCH", "/api/v1/account", a.liveKey, { name })).status).toBe(200);
  return { accountId: a.accountId, key: a.liveKey, ...recordIssuer(a.liveKey) };
}

/** Operator commands through the running server's admin endpoint, as `npm run admin` does. */
export const admin = (...argv: string[]): Promise<Record<string, unknown>> =>
  adminViaServer(process.env.PRS_E2E_DATA_DIR!, baseURL, argv);

/** Wait until React has hydrated the element (it then carries React's props). */
export const hydrated = (el: Locator) =>
  expect.poll(() => el.evaluate((node) => Object.keys(node).some((k) => k.startsWith("__reactProps$")))).toBe(true);

/**
 * Set a hidden input of `form` to `value` in the page, as a forging user would. Only once
 * React has hydrated the form: hydration would put a controlled input's value back.
 */
export async function forge(form: Locator, name: string, value: string) {
  await hydrated(form);
  await form.locator(`input[name="${name}"]`).evaluate((el, v) => ((el as HTMLInputElement).value = v), value);
}

/**
 * Click `button` and wait until the server action's POST has been answered; `posted` must be
 * in the request body (the forged value really went to the server).
 */
export async function submitAction(page: Page, button: Locator, posted?: string) {
  await hydrated(button); // else the browser posts the form itself, without the Next-Action header
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && r.request().headers()["next-action"] !== undefined),
    button.click(),
  ]);
  if (posted) expect(response.request().postDataBuffer()?.toString()).toContain(posted);
}

/** The "Going live" section of /developers. */
export const goingLiveSection = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "Going live" }) });

/** Send the plan request form on /developers (the customer's page must be open there). */
export async function requestPlan(page: Page, plan: "starter" | "growth", note?: string) {
  const form = goingLiveSection(page).getByTestId("plan-request-form");
  await hydrated(form.getByRole("button", { name: "Request this plan" }));
  await form.getByLabel(plan).check();
  if (note) await form.getByLabel(/What you will use live records for/).fill(note);
  await form.getByRole("button", { name: "Request this plan" }).click();
}

/** An admin's page: approve the pending plan request of `email` in /admin, and see the plan set. */
export async function approvePlanRequest(adminPage: Page, email: string, plan: "starter" | "growth") {
  await adminPage.goto("/admin");
  const row = adminPage.locator(`[data-testid="plan-request-row"][data-email="${email}"]`);
  await expect(row).toContainText(plan);
  await submitAction(adminPage, row.getByRole("button", { name: `Approve the plan request of ${email}` }));
  await expect(adminPage.locator(`[data-testid="account-row"][data-email="${email}"]`)).toHaveAttribute("data-plan", plan);
}
