import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { setDnsEntry, type DnsEntry } from "../tests/dns-server";

/** Shared steps of the e2e specs; the servers behind them are started by global-setup.ts. */
export const baseURL = process.env.PRS_E2E_BASE_URL!;
export const password = "correct horse battery";

const shots = path.join(import.meta.dirname, "screenshots");
fs.mkdirSync(shots, { recursive: true });
export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

/** Undo quoted-printable soft breaks and escapes (nodemailer wraps long lines). */
const decodeQp = (s: string) =>
  s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The confirmation link in the mail the SMTP capture received for `to`. */
export async function confirmationLink(to: string): Promise<string> {
  const mailDir = process.env.PRS_E2E_MAIL_DIR!;
  const deadline = Date.now() + 15_000;
  for (;;) {
    for (const f of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
      const raw = fs.readFileSync(path.join(mailDir, f), "utf8");
      if (!raw.startsWith(`X-Envelope-To: ${to}\r\n`)) continue;
      const m = /https?:\/\/\S+\/confirm\?token=[A-Za-z0-9._%-]+/.exec(decodeQp(raw));
      if (m) return m[0];
    }
    if (Date.now() > deadline) throw new Error(`no confirmation mail for ${to} in ${mailDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Sign up through the form; returns the sandbox key shown once. */
export async function signUp(page: Page, email: string): Promise<string> {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signup-done")).toBeVisible();
  return (await page.getByTestId("secret-value").innerText()).trim();
}

/** Open the link from the confirmation mail. */
export async function confirmEmail(page: Page, email: string) {
  const link = await confirmationLink(email);
  expect(link.startsWith(baseURL)).toBe(true);
  await page.goto(link);
  await expect(page.locator("#confirm-result")).toHaveText(/confirmed/);
}

/** Open `target` without a session, sign in on the page it sends us to, land on `target`. */
export async function signIn(page: Page, email: string, target: string) {
  await page.goto(target);
  await expect(page).toHaveURL(new RegExp(`/signin\\?callbackUrl=${encodeURIComponent(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
}

/** Publish (or with null, remove) a name in the e2e server's loopback DNS (tests/dns-server.ts). */
export function setDns(name: string, entry: DnsEntry | null) {
  setDnsEntry(process.env.PRS_E2E_DNS_ZONE!, name, entry);
}

/** Operator commands through the running server's admin endpoint (what `npm run admin` does). */
export async function admin(...argv: string[]): Promise<Record<string, unknown>> {
  const rt = JSON.parse(fs.readFileSync(path.join(process.env.PRS_E2E_DATA_DIR!, "server.json"), "utf8"));
  const res = await fetch(`${baseURL}/api/internal/admin`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${rt.token}` },
    body: JSON.stringify({ argv }),
  });
  const out = await res.json();
  if (!out.ok) throw new Error(`admin ${argv.join(" ")}: ${JSON.stringify(out.error)}`);
  return out.result;
}
