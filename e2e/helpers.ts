import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

/** Shared steps of the e2e specs. The server is the one e2e/global-setup.ts started. */

export const baseURL = process.env.PRS_E2E_BASE_URL!;
export const password = "correct horse battery";

const shots = path.join(import.meta.dirname, "screenshots");
fs.mkdirSync(shots, { recursive: true });

export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

/** Sign up through the portal; returns the sandbox key shown once. */
export async function signUp(page: Page, email: string): Promise<string> {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signup-done")).toBeVisible();
  return (await page.getByTestId("secret-value").innerText()).trim();
}

/** On the sign-in page (e.g. after a redirect): sign in and land on `expectUrl`. */
export async function signIn(page: Page, email: string, expectUrl: RegExp) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
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
