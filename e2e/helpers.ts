import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { adminViaServer } from "../tests/admin-client";
import { setDnsEntry, type DnsEntry } from "../tests/dns-server";

/** Shared steps of the e2e specs. The global setup exports where the server and its mail are. */
export const baseURL = process.env.PRS_E2E_BASE_URL!;
export const mailDir = process.env.PRS_E2E_MAIL_DIR!;
export const password = "correct horse battery";

const shots = path.join(import.meta.dirname, "screenshots");
fs.mkdirSync(shots, { recursive: true });
export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

/** Undo quoted-printable soft breaks and escapes (nodemailer wraps long lines). */
export const decodeQp = (s: string) =>
  s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** Capture files are `<ms>-<n>.eml`; n counts up, so it orders them. */
const order = (f: string) => Number(/-(\d+)\.eml$/.exec(f)?.[1] ?? -1);

/**
 * The newest link to `pathname` (e.g. "/confirm") in a mail the SMTP capture received for
 * `to`, skipping links in `seen`. Waits up to 15 s: some mails go out after the answer.
 */
export async function mailedLink(to: string, pathname: string, seen: Iterable<string> = []): Promise<string> {
  const skip = new Set(seen);
  const re = new RegExp(`https?://\\S+${pathname.replace(/[/.]/g, "\\$&")}\\?token=[A-Za-z0-9._%-]+`, "g");
  const deadline = Date.now() + 15_000;
  for (;;) {
    const files = (fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []).sort((a, b) => order(b) - order(a));
    for (const f of files) {
      const raw = fs.readFileSync(path.join(mailDir, f), "utf8");
      if (!raw.startsWith(`X-Envelope-To: ${to}\r\n`)) continue;
      const link = decodeQp(raw).match(re)?.find((l) => !skip.has(l));
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no mail with a ${pathname} link for ${to} in ${mailDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Sign up through the form; returns the sandbox key shown once. */
export async function signUp(page: Page, email: string, pw = password): Promise<string> {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(pw);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signup-done")).toBeVisible();
  return (await page.getByTestId("secret-value").innerText()).trim();
}

/** Fill and send the sign-in form on the current /signin page. */
export async function signInWithPassword(page: Page, email: string, pw = password) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(pw);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The confirmation link in the mail the SMTP capture received for `to`. */
export const confirmationLink = (to: string) => mailedLink(to, "/confirm");

/** Open the link from the confirmation mail. */
export async function confirmEmail(page: Page, email: string) {
  const link = await confirmationLink(email);
  expect(link.startsWith(baseURL)).toBe(true);
  await page.goto(link);
  await expect(page.locator("#confirm-result")).toHaveText(/confirmed/);
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

/** Operator commands through the running server's admin endpoint, as `npm run admin` does. */
export const admin = (...argv: string[]): Promise<Record<string, unknown>> =>
  adminViaServer(process.env.PRS_E2E_DATA_DIR!, baseURL, argv);
