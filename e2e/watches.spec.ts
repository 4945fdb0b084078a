import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { admin, callApi, hydrated, openConfirm, setDns, shotBoth, signedUpPerson as person } from "./helpers";

/** A live account made by the operator CLI, with a live key (the imposter, driven through the API). */
async function liveImposter() {
  const a = await admin("account", "create", "--email", `e2e-imposter-${randomUUID().slice(0, 8)}@example.com`);
  await admin("account", "confirm-email", "--account", String(a.account_id));
  await admin("plan", "set", "--account", String(a.account_id), "--plan", "growth");
  return (await admin("key", "create", "--account", String(a.account_id), "--env", "live")).key as string;
}

/** A live domain_ownership record of `key`, proved through the loopback DNS. */
async function proveDomain(key: string, domain: string): Promise<string> {
  const c = await callApi("POST", "/api/v1/domain-challenges", key, { domain });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  setDns(c.body.txt_name, [c.body.txt_value]);
  const r = await callApi("POST", "/api/v1/records", key, {
    subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.body.id },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.verification_id as string;
}

test("impersonation watch: add a domain, see an imposter's look-alike record matched with its certificate, delete the watch", async ({ browser }) => {
  const tag = randomUUID().replace(/-/g, "").slice(0, 8);
  const domain = `watcha${tag}.com`;
  const lookAlike = domain.replace("a", "\u0430"); // a Cyrillic а
  const owner = await person(browser, "watcher");
  const p = owner.page;

  await p.getByRole("navigation").getByRole("link", { name: "Watches" }).click();
  await expect(p).toHaveURL(/\/watches$/);
  await expect(p.getByRole("heading", { level: 1 })).toHaveText("Impersonation watch");
  await expect(p.getByTestId("no-watches")).toBeVisible();

  // A bad value is refused beside the form, with what was typed kept.
  const form = p.getByTestId("add-watch-form");
  await form.getByLabel("Watch a").selectOption("iban");
  await form.getByLabel("Value").fill("DE00 1234");
  const add = form.getByRole("button", { name: "Add watch" });
  await hydrated(add);
  await add.click();
  await expect(form.getByRole("alert")).toContainText("Not an IBAN");
  await expect(form.getByLabel("Value")).toHaveValue("DE00 1234");

  await form.getByLabel("Watch a").selectOption("domain");
  await form.getByLabel("Value").fill(`https://www.${domain}/contact`);
  await add.click();
  await expect(p.getByTestId("watch-added")).toHaveText(`Watching ${domain}.`);
  const row = p.getByTestId("watch-row").filter({ hasText: domain });
  await expect(row).toHaveCount(1);
  await expect(p.getByTestId("no-matches")).toBeVisible();

  // An imposter proves the look-alike domain: the watch fires.
  const imposterKey = await liveImposter();
  const fake = await proveDomain(imposterKey, lookAlike);
  // The watches take the issued record from the outbox once it is written: the page shows the match once they have.
  const match = p.getByTestId("match-row").filter({ hasText: fake });
  await expect(async () => {
    await p.reload();
    await expect(match).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(match).toContainText("a look-alike");
  // Shown as the display rules show a look-alike: as written, with its A-label beside it.
  await expect(match.getByTestId("matched-value")).toHaveText(/^w\u0430tcha.*\.com \(xn--.*\.com\)$/);
  await shotBoth(p, "watches");

  // The match links to the imposter's certificate.
  await match.getByRole("link", { name: fake }).click();
  await expect(p).toHaveURL(new RegExp(`/r/${fake}$`));
  await p.goBack();

  // Delete, in two steps.
  const yes = await openConfirm(p.getByTestId("watch-row").filter({ hasText: domain }), `Delete watch https://www.${domain}/contact`, "Yes, delete");
  await yes.click();
  await expect(p.getByTestId("no-watches")).toBeVisible();
  await expect(p.getByTestId("no-matches")).toBeVisible();
  await shotBoth(p, "watches-empty");
});
