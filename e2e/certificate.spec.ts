import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { admin, baseURL, callApi as api, collectBrowserErrors, ownClientAddress, setDns, shot, liveCustomerAccount } from "./helpers";

/**
 * A stranger who scans the QR code must tell in five seconds who said what, how far it was
 * checked, and whether it still holds — at 1280 px and on a 390 px phone. Only a verified
 * (live, active, checked) record is green; attested and sandbox pages are noindex.
 */
test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

async function liveAccount(name: string) {
  const a = await liveCustomerAccount("cert");
  const live = a.liveKey;
  const sandbox = a.sandboxKey;
  expect((await api("PATCH", "/api/v1/account", live, { name })).status).toBe(200);
  return { live, sandbox, accountId: a.accountId };
}

async function record(key: string, body: Record<string, unknown>) {
  const r = await api("POST", "/api/v1/records", key, { visibility: "public", ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.verification_id as string;
}

/** The page as it is at 1280 px, and the same URL on a 390 px phone in a page of its own. */
async function both(page: Page, name: string) {
  await shot(page, `${name}-1280`);
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(page.url());
  await shot(phone, `${name}-390`);
  await phone.close();
}

const robots = async (page: Page) => {
  const meta = page.locator('meta[name="robots"]');
  return (await meta.count()) === 0 ? null : meta.getAttribute("content");
};

test("each level and status names the speaking account; only a verified organisation's checked record is green", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = await collectBrowserErrors(page);
  const acct = await liveAccount("Globex Corporation");

  // Stated by the account, not checked: no green, noindex.
  const attested = await record(acct.live, { subject: "Globex Corporation", claim_type: "company_status", claim: "Globex Corporation is an active company in good standing." });
  await page.goto(`/r/${attested}`);
  await expect(page.getByTestId("level-headline")).toHaveText(/Stated by an account calling itself “Globex Corporation” \(name not verified\) — not checked/);
  await expect(page.locator("main")).toHaveAttribute("data-tone", "stated");
  await expect(page.getByTestId("verified-mark")).toHaveText("Not verified");
  const headlineColour = () => page.getByTestId("verdict").evaluate((e) => getComputedStyle(e).borderLeftColor);
  const amber = await headlineColour();
  await expect(page.getByTestId("self-declared")).toContainText("An account calling itself “Globex Corporation”");
  await expect(page.getByTestId("self-declared")).toContainText("Name not verified");
  await expect(page.getByTestId("checks")).toContainText("only stated by the account");
  await expect(page.getByTestId("proof-scope")).toContainText("What this record does not prove");
  await expect(page.locator("header").first()).toContainText("Proof Records");
  expect(await robots(page)).toContain("noindex");
  await both(page, "certificate-attested");

  // Checked against a source (DNS), live and public, by an account that only names itself: checked, never green.
  const domain = `cert-${randomUUID().slice(0, 8)}.example.com`;
  const c = (await api("POST", "/api/v1/domain-challenges", acct.live, { domain })).body;
  setDns(c.txt_name, [c.txt_value]);
  const checked = await record(acct.live, { subject: domain, claim_type: "domain_ownership", claim: `Globex Corporation controls ${domain}.`, evidence: { challenge_id: c.id } });
  await page.goto(`/r/${checked}`);
  await expect(page.getByTestId("level-headline")).toHaveText("Checked against a source");
  await expect(page.locator("main")).toHaveAttribute("data-tone", "checked");
  await expect(page.getByTestId("evidence-explained")).toHaveText("Proof Records checked this automatically against the source below when it was issued. The statement was made by an account calling itself “Globex Corporation” (name not verified).");
  await expect(page.getByTestId("verified-mark")).toHaveText("Checked — by an account whose name is not verified");
  // Amber, as the badge on its site: never the verified organisation's green.
  expect(await headlineColour()).toBe(amber);
  await expect(page.getByTestId("speaker")).toContainText(`proved domain ${domain}`);
  await expect(page.getByTestId("speaker")).toHaveAttribute("data-speaker", "self_declared");
  await expect(page.getByTestId("checks")).toContainText(`checked by Proof Records against DNS TXT _prs-challenge.${domain}`);
  await expect(page.getByTestId("evidence-list")).toContainText("DNS record");
  await expect(page.getByTestId("evidence-list")).not.toContainText("txt_name");
  expect(await robots(page)).toBeNull();
  await both(page, "certificate-unverified-account");

  // A reviewer verifies the organisation: the same record is now green, by its legal name.
  await admin("organisation", "verify", "--account", acct.accountId, "--legal-name", "Globex Corporation", "--jurisdiction", "US", "--domains", domain);
  await page.goto(`/r/${checked}`);
  await expect(page.locator("main")).toHaveAttribute("data-tone", "verified");
  expect(await headlineColour()).not.toBe(amber);
  await expect(page.getByTestId("verified-mark")).toHaveText("Verified");
  await expect(page.getByTestId("speaker")).toHaveAttribute("data-speaker", "verified_organisation");
  await expect(page.getByTestId("speaker")).toContainText("✓ Verified organisation");
  await expect(page.getByTestId("speaker")).toContainText("Globex Corporation");
  await both(page, "certificate-verified-organisation");

  // The attested record now names the proved domain beside the account (its cached view was dropped).
  await page.goto(`/r/${attested}`);
  await expect(page.getByTestId("speaker")).toContainText(`proved domain ${domain}`);
  await expect(page.locator("main")).toHaveAttribute("data-tone", "stated");

  // Revoked: the alert leads, nothing is green.
  expect((await api("POST", `/api/v1/records/${checked}/lifecycle`, acct.live, { operation: "revoke", reason: "Domain sold." })).status).toBe(200);
  await page.goto(`/r/${checked}`);
  await expect(page.getByTestId("status-alert")).toContainText("REVOKED");
  // When, by whom and why, at the top: its owner, by its verified legal name now.
  await expect(page.getByTestId("status-when")).toHaveText(/^Revoked on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/);
  await expect(page.getByTestId("status-actor")).toHaveText("Revoked by the account that issued it, Globex Corporation: Domain sold.");
  await expect(page.getByTestId("verdict")).not.toContainText("valid until");
  await expect(page.locator("main")).toHaveAttribute("data-tone", "lapsed");
  await expect(page.getByTestId("verified-mark")).toHaveText("Not verified");
  await both(page, "certificate-revoked");

  // Sandbox: a test that proves nothing, whatever it says.
  const sandbox = await record(acct.sandbox, { subject: "Globex Corporation", claim_type: "company_status", claim: "Globex Corporation is an active company." });
  await page.goto(`/r/${sandbox}`);
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await expect(page.getByTestId("level-headline")).toHaveText(/Sandbox test record — proves nothing/);
  await expect(page.locator("main")).toHaveAttribute("data-tone", "sandbox");
  expect(await robots(page)).toContain("noindex");
  await both(page, "certificate-sandbox");
  expect(errors).toEqual([]);
});

test("anyone can report a problem from a certificate; a refusal keeps what was typed, and reviewers see it", async ({ page }) => {
  const acct = await liveAccount("Initech Ltd");
  const id = await record(acct.live, { subject: "Initech Ltd", claim_type: "company_status", claim: "Initech Ltd pays its invoices." });
  await page.goto(`/r/${id}`);
  await page.getByText("Report a problem with this record").click();
  await page.getByLabel("What is wrong?").fill("A scam that uses Initech's name.");
  await page.getByLabel(/Your email/).fill("visitor@localhost"); // the browser lets it through; the server wants a real domain
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "valid email" })).toBeVisible();
  await expect(page.getByLabel("What is wrong?")).toHaveValue("A scam that uses Initech's name.");
  await page.getByLabel(/Your email/).fill("visitor@example.org");
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByTestId("report-sent")).toBeVisible();
  await both(page, "certificate-report-sent");

  // It reaches the reviewers (their console lists the same; `npm run admin -- reports list` for operators).
  const { reports } = (await admin("reports", "list")) as { reports: { record_id: string; message: string; contact: string }[] };
  expect(reports.find((r) => r.record_id === id)).toMatchObject({ message: "A scam that uses Initech's name.", contact: "visitor@example.org" });
});

test("a look-alike domain (Cyrillic аррӏе) is shown with its A-label on the certificate, at 1280 and 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const acct = await liveAccount("Orchard Devices");
  const domain = `аррӏе-${randomUUID().slice(0, 4)}.com`; // Cyrillic а р р ӏ е, then Latin hex: mixed script
  const ascii = new URL(`https://${domain}`).hostname;
  const c = (await api("POST", "/api/v1/domain-challenges", acct.live, { domain })).body;
  setDns(c.txt_name, [c.txt_value]);
  const id = await record(acct.live, { subject: domain, claim_type: "domain_ownership", claim: `Orchard Devices controls ${domain}.`, evidence: { challenge_id: c.id } });
  await page.goto(`/r/${id}`);
  const subject = page.getByTestId("subject").getByTestId("lookalike-domain");
  await expect(subject).toHaveAttribute("data-a-label", ascii);
  await expect(subject).toContainText(`${domain} (${ascii})`);
  await expect(subject).toContainText(`look-alike characters: the real address is ${ascii}`);
  // The account's proved-domain chip says the same.
  await expect(page.getByLabel("Domains this account proved").getByTestId("lookalike-domain")).toHaveAttribute("data-a-label", ascii);
  await expect(page).toHaveTitle(new RegExp(ascii));
  await both(page, "certificate-lookalike-domain");
  // Nothing of it runs past a phone's edge.
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(page.url());
  expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await phone.close();
});
