import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { uniqueIban } from "../tests/iban";
import { admin, baseURL, callApi as api, collectBrowserErrors, freshClientAddress, hydrated, namedLiveAccount, ownClientAddress, shotBoth, signedUpPerson } from "./helpers";

/**
 * A stranger who never saw the API (issue 28): from the home page's one box they reach the
 * lookup's answer for an IBAN, a wallet and a website, and the full /check; "Check before you
 * pay" is in the header of every public page, one tap on a phone; a revoked certificate says
 * when, by whom and why at the top; the not-found page has a way home and a warning; the
 * directory does not scroll sideways at 390 px. At 1280 and 390 px, in Chromium.
 */

const liveAccount = (name: string) => namedLiveAccount("visitor", name);

/** A reviewer (signed up in a browser of its own, granted the role) approves a submission with every checklist item ticked. */
async function approve(browser: Browser, id: string) {
  const reviewer = await signedUpPerson(browser, "visitor-reviewer");
  await admin("role", "grant", "--account", reviewer.accountId, "--role", "reviewer");
  await reviewer.page.goto(`/review/${id}`);
  const form = reviewer.page.getByTestId("approve-form");
  await hydrated(form.getByRole("button", { name: "Approve and issue" }));
  for (const box of await form.getByRole("checkbox").all()) await box.check();
  await form.getByRole("button", { name: "Approve and issue" }).click();
  await expect(reviewer.page.getByTestId("decided")).toContainText("approve");
  await reviewer.ctx.close();
}

/** Type into the home page's box and look it up (a plain GET form). */
async function lookUp(page: Page, value: string) {
  await page.goto("/");
  await page.getByLabel("A company name or LEI, record id, IBAN, wallet, website or listing link").fill(value);
  await page.getByRole("button", { name: "Look it up" }).click();
}

/** The header's "Check before you pay": visible, and one tap to /check, at 1280 and at 390 px. */
async function headerCheck(page: Page, path: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(path);
    const link = page.locator("header").first().getByRole("link", { name: "Check before you pay" });
    await expect(link, `${path} at ${width} px`).toBeVisible();
    await expect(link).toHaveAttribute("href", "/check");
    if (width === 390) {
      // One tap on a phone: a target at least 40 px high, inside the screen, not behind a menu.
      const box = (await link.boundingBox())!;
      expect(box.height, path).toBeGreaterThanOrEqual(40);
      expect(box.x + box.width, path).toBeLessThanOrEqual(390);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

test("from the home page a visitor reaches the lookup's answer for an IBAN, a wallet and a website, and the full check", async ({ browser }) => {
  test.setTimeout(240_000);
  const tag = randomUUID().slice(0, 6);
  const legal = `Seaview ${tag} Apartments Ltd`;
  const real = await liveAccount(legal);
  const host = `seaview-${tag}.example.com`;
  const domainRecord = await real.domain(host);
  await admin("organisation", "verify", "--account", real.accountId, "--legal-name", legal, "--domains", host);
  const payout = await real.wallet();
  // An IBAN payee is confirmed by a reviewer (a bank letter): submitted, then approved in the reviewer console.
  // The test's own IBAN: one another account of the run carries would be a high risk signal (two reviewers).
  const iban = uniqueIban().replace(/(.{4})/g, "$1 ").trim();
  const listing = await real.record({
    subject: legal, claim_type: "verified_listing", claim: `${legal} runs listing 4471.`,
    evidence: { operator: legal, listing_url: `https://${host}/listing/4471`, domain: host, domain_record: domainRecord, payee: { type: "iban", value: iban, account_name: legal } },
  }, 202);
  await approve(browser, listing);

  // The attacker: an account that merely calls itself by the same name, with a wallet it really controls.
  const imposter = await liveAccount(legal);
  const theirs = await imposter.wallet();

  const ctx = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": freshClientAddress() } });
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });

  // IBAN, typed as people do (spaces, lower case): on record for the verified organisation.
  await lookUp(page, iban.toLowerCase());
  const answer = page.getByTestId("lookup-answer");
  await expect(answer).toHaveAttribute("data-type", "iban");
  await expect(answer).toHaveAttribute("data-result", "verified");
  await expect(page.getByTestId("lookup-sentence")).toContainText(`on record for ${legal}`);
  await expect(page.getByTestId("lookup-matches")).toContainText(listing);
  await shotBoth(page, "new-visitor-iban");

  // Wallet: verified for the organisation.
  await lookUp(page, payout.address);
  await expect(answer).toHaveAttribute("data-type", "wallet");
  await expect(answer).toHaveAttribute("data-result", "verified");
  await expect(page.getByTestId("lookup-matches")).toContainText(`${legal}, a verified organisation`);
  await shotBoth(page, "new-visitor-wallet");

  // Website, pasted as a link: verified; then the offer runs the full /check with it filled in.
  await lookUp(page, `https://www.${host}/`);
  await expect(answer).toHaveAttribute("data-type", "website");
  await expect(answer).toHaveAttribute("data-result", "verified");
  await shotBoth(page, "new-visitor-website");
  const offer = page.getByTestId("home-check-offer");
  await offer.getByLabel(/Operator/).fill(legal);
  await offer.getByRole("button", { name: "Check before you pay" }).click();
  await expect(page).toHaveURL(/\/check\?/);
  await expect(page.getByLabel("Website")).toHaveValue(`https://www.${host}/`);
  await expect(page.getByTestId("verdict-website")).toHaveAttribute("data-verdict", "match");
  await expect(page.getByTestId("check-overall")).toHaveAttribute("data-verdict", "match");
  await shotBoth(page, "new-visitor-check");

  // The attacker's wallet is on record only under a self-declared name: never verified, never a tick.
  await lookUp(page, theirs.address);
  await expect(answer).toHaveAttribute("data-result", "checked");
  await expect(page.getByTestId("lookup-headline")).not.toContainText("✓");
  await expect(page.getByTestId("lookup-headline")).toContainText("not for a verified organisation");
  await expect(page.getByTestId("lookup-sentence")).toContainText("no assurance of who you are dealing with");
  await expect(page.getByTestId("lookup-matches")).toContainText(`an account calling itself “${legal}” (name not verified)`);
  await expect(answer).not.toContainText("a verified organisation,");
  await shotBoth(page, "new-visitor-self-declared");

  // The company's name typed into the home box: the full check's operator part answers (issue 38).
  await lookUp(page, legal.toUpperCase());
  await expect(page).toHaveURL(/\/check\?operator=/);
  await expect(page.getByLabel("Operator")).toHaveValue(legal.toUpperCase());
  await expect(page.getByTestId("verdict-operator")).toHaveAttribute("data-verdict", "match");
  await expect(page.getByTestId("verdict-operator")).toContainText(`${legal} is a verified organisation`);
  await shotBoth(page, "new-visitor-company-name");

  // Nothing on record: said plainly, and that it is no guarantee either way.
  await lookUp(page, `nobody-${tag}.example.org`);
  await expect(answer).toHaveAttribute("data-result", "no_match");
  await expect(page.getByTestId("lookup-sentence")).toContainText("no guarantee either way");
  await shotBoth(page, "new-visitor-no-match");

  // Bad input: a friendly sentence beside the field, no 500; a record id still opens its certificate.
  for (const [typed, said] of [
    ["DE89 3704 0044 0532 0130 01", "check digits are wrong"],
    ["0x1234", "not a valid one"],
    ["ftp://example.com/x", "We could not tell what that is"],
    ["PRS-nope", "That is not a record id"],
  ] as const) {
    await lookUp(page, typed);
    await expect(page.locator("#q-error"), typed).toContainText(said);
    await expect(page.getByLabel("A company name or LEI, record id, IBAN, wallet, website or listing link")).toHaveValue(typed);
  }
  await shotBoth(page, "new-visitor-refused");
  const res = await page.goto(`/?q=${encodeURIComponent("a\u202Eb")}`);
  expect(res!.status()).toBe(200);
  await expect(page.locator("#q-error")).toContainText("hidden or control characters");
  await lookUp(page, ` ${payout.id.toLowerCase()} `);
  await expect(page).toHaveURL(new RegExp(`/r/${payout.id}$`));
  await ctx.close();
});

test("every public page has 'Check before you pay' in its header; a revoked certificate says when, by whom and why at the top", async ({ page }) => {
  test.setTimeout(180_000);
  const errors = await collectBrowserErrors(page);
  const tag = randomUUID().slice(0, 6);
  const acct = await liveAccount(`Harbour ${tag} Rentals`);
  const w = await acct.wallet();
  const gone = await acct.wallet();
  expect((await api("POST", `/api/v1/records/${gone.id}/lifecycle`, acct.key, { operation: "revoke", reason: "Wallet key lost." })).status).toBe(200);

  for (const path of ["/", "/check", "/directory", "/docs/guides", `/r/${w.id}`, `/r/${gone.id}`, "/no-such-page", "/r/PRS-00000000000000000000", "/no-such-record", "/signin", "/signup"]) {
    await headerCheck(page, path);
  }

  // Revoked: the top says it, when, by whom (the issuing account, by its self-declared name) and why — not "valid until" a future date.
  await page.goto(`/r/${gone.id}`);
  const alert = page.getByTestId("status-alert");
  await expect(alert).toContainText("REVOKED");
  await expect(page.getByTestId("status-when")).toHaveText(/^Revoked on \d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("status-actor")).toHaveText(`Revoked by the account that issued it, an account calling itself “Harbour ${tag} Rentals” (name not verified): Wallet key lost.`);
  await expect(page.getByTestId("verdict")).not.toContainText("valid until");
  await expect(page.getByTestId("verdict")).toContainText("revoked since");
  const alertTop = (await alert.boundingBox())!.y;
  const headlineTop = (await page.getByTestId("level-headline").boundingBox())!.y;
  expect(alertTop).toBeLessThan(headlineTop);
  await shotBoth(page, "new-visitor-revoked");

  // The not-found page: the site header, a way home, a warning that a link sent as proof is unverified.
  const missing = await page.goto("/r/PRS-00000000000000000000");
  expect(missing!.status()).toBe(404);
  await expect(page.getByTestId("unverified-warning")).toContainText("Treat the claim as unverified");
  await shotBoth(page, "new-visitor-certificate-not-found");
  expect((await page.goto("/no-such-page"))!.status()).toBe(404);
  await expect(page.getByTestId("unverified-warning")).toBeVisible();
  await shotBoth(page, "new-visitor-not-found");
  await page.getByTestId("way-home").click();
  await expect(page).toHaveURL(`${baseURL}/`);
  // The browser logs each 404 itself: those lines are the pages asked for.
  expect(errors.filter((e) => !e.includes("status of 404"))).toEqual([]);
});

test("the directory does not scroll sideways on a 390 px phone", async ({ page }) => {
  const acct = await liveAccount(`Longname ${randomUUID().slice(0, 6)} International Holdings and Trading Company Limited`);
  await acct.wallet();
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/directory", "/directory?claim_type=wallet_ownership", "/"]) {
    await page.goto(path);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), path).toBeLessThanOrEqual(390);
  }
  await page.goto("/directory");
  await shotBoth(page, "new-visitor-directory");
});
