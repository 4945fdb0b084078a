import { generateKeyPairSync, randomBytes, randomUUID, sign } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import canonicalize from "canonicalize";
import path from "node:path";
import { randomLei, setLeiRecord } from "../tests/lei-register";
import { admin, baseURL, callApi as api, collectBrowserErrors, hydrated, ownClientAddress, shotBoth, signIn, signUp, submitAction } from "./helpers";

/**
 * An agent's mandate from the browser (issue 13): issued from "New record" as the
 * principal's own statement, shown on its record page with its mandate and key, then linked
 * to the account's checked company record (the LEI register stand-in answers for it), a
 * record that does not qualify refused beside its field with the input kept, and unlinked.
 */
test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

async function record(key: string, body: Record<string, unknown>) {
  const r = await api("POST", "/api/v1/records", key, { visibility: "public", ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.verification_id as string;
}

const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const input = (page: Page, name: string) => page.locator(`[name="${name}"]`);

/** Nothing in the page's content sticks out sideways at the current width. */
async function expectMainFits(page: Page) {
  const { scroll, client } = await page.locator("main").evaluate((m) => ({ scroll: m.scrollWidth, client: m.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

async function shots(page: Page, name: string) {
  await shotBoth(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectMainFits(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an agent's mandate: issued from the browser, shown to its owner, linked to a company record, refused, unlinked", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = await collectBrowserErrors(page);
  const email = `e2e-agent-${randomUUID().slice(0, 8)}@example.com`;
  const sandboxKey = await signUp(page, email);
  // A live company record checked against the LEI register (stand-in), made through the API.
  const accountId = String((await api("GET", "/api/v1/account", sandboxKey)).body.id);
  await admin("account", "confirm-email", "--account", accountId);
  await admin("plan", "set", "--account", accountId, "--plan", "growth");
  const liveKey = String((await admin("key", "create", "--account", accountId, "--env", "live")).key);
  // An LEI of this test's own (the register stand-in answers for it), and the account verified as that organisation by staff:
  // only then does its agent's principal standing read "verified".
  const lei = randomLei();
  setLeiRecord(path.join(process.env.PRS_E2E_DATA_DIR!, "lei-records.json"), lei, { legalName: "Proof Records Test Company Ltd", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
  const company = await record(liveKey, { subject: "Proof Records Test Company Ltd", claim_type: "company_identity", claim: "Holds an active LEI.", evidence: { lei } });
  await admin("organisation", "verify", "--account", accountId, "--legal-name", "Proof Records Test Company Ltd", "--lei", lei);
  const notCompany = await record(liveKey, { subject: "Proof Records Test Company Ltd", claim_type: "company_status", claim: "An active company." });

  // Issue the agent's mandate from "New record".
  await signIn(page, email, "/records/new");
  const radio = page.getByRole("radio", { name: /An AI agent's mandate/ });
  await hydrated(radio);
  await radio.check();
  await expect(page.getByText("The mandate", { exact: true })).toBeVisible();
  await expect(input(page, "expires_at")).toHaveCount(0);
  const validUntil = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
  await input(page, "subject").fill("invoice-agent-7");
  await input(page, "claim").fill("invoice-agent-7 may pay approved invoices for Proof Records Test Company Ltd.");
  await input(page, "principal").fill("Proof Records Test Company Ltd");
  await input(page, "agent_id").fill("invoice-agent-7");
  await input(page, "act").fill("pay_invoices");
  await input(page, "scope.asset").fill("USDC");
  await input(page, "scope.max_amount").fill("250.00");
  await input(page, "scope.network").fill("base");
  await input(page, "session_id").fill("sess-2026-11");
  await input(page, "valid_until").fill(validUntil);
  // Checked needs a signature made outside the browser: refused beside its field, everything typed kept.
  await page.getByRole("radio", { name: /Source verified/i }).check();
  await shots(page, "agent-new-form");
  await page.getByTestId("create-record").click();
  await expect(field(page, "mandate_signature").getByTestId("field-error")).toContainText("signed mandate");
  await expect(input(page, "scope.max_amount")).toHaveValue("250.00");
  await expect(input(page, "valid_until")).toHaveValue(validUntil);
  await shots(page, "agent-new-refused");
  await page.getByRole("radio", { name: /Participant attested/i }).check();
  await page.getByTestId("create-record").click();
  await expect(page).toHaveURL(/\/records\/PRS-[0-9A-Z]{20}$/);
  const agentId = page.url().split("/").pop()!;

  // The owner's page: the mandate as stated, no key, unlinked.
  const mandate = page.getByTestId("agent-mandate");
  await expect(mandate.getByTestId("mandate-principal")).toHaveText("Proof Records Test Company Ltd");
  await expect(mandate.getByTestId("mandate-act")).toHaveText("pay_invoices");
  await expect(mandate.getByTestId("mandate-scope")).toContainText("up to 250.00 USDC on base");
  await expect(mandate.getByTestId("mandate-session")).toHaveText("sess-2026-11");
  await expect(mandate.getByTestId("mandate-valid-until")).toHaveText(validUntil.replace("T", " ").replace("Z", " UTC"));
  await expect(mandate.getByTestId("mandate-key")).toContainText("not signed");
  const principal = page.getByTestId("agent-principal");
  await expect(principal.getByTestId("principal-standing")).toHaveText("unlinked");
  const linkForm = principal.getByTestId("principal-link-form");
  // Only the checked, public, active company record is offered.
  const select = linkForm.getByLabel(/Link a company record/);
  await expect(select.locator("option")).toHaveCount(2);
  await expect(select.locator(`option[value="${company}"]`)).toHaveCount(1);
  await shots(page, "agent-record-unlinked");

  // A record that is not a company identity record, typed: refused beside the typed field, the id kept.
  await linkForm.getByLabel(/Or its id/).fill(notCompany);
  await submitAction(page, linkForm.getByRole("button", { name: "Link" }), notCompany);
  const refused = page.getByTestId("principal-link-form");
  await expect(refused.getByTestId("field-error")).toContainText("must be a company_identity record");
  await expect(refused.getByLabel(/Or its id/)).toHaveValue(notCompany);
  await expect(refused.getByLabel(/Or its id/)).toHaveAttribute("aria-invalid", "true");
  await expect(principal.getByTestId("principal-standing")).toHaveText("unlinked");
  await shots(page, "agent-record-link-refused");

  // Nothing chosen: said beside the list.
  await refused.getByLabel(/Or its id/).fill("");
  await submitAction(page, refused.getByRole("button", { name: "Link" }));
  await expect(page.getByTestId("principal-link-form").getByTestId("field-error")).toContainText("Choose a company record");

  // The company record from the list: verified, named, with its certificate.
  await page.getByTestId("principal-link-form").getByLabel(/Link a company record/).selectOption(company);
  await submitAction(page, page.getByTestId("principal-link-form").getByRole("button", { name: "Link" }), company);
  await expect(page.getByTestId("principal-done")).toContainText(`Linked to ${company}`);
  await expect(principal.getByTestId("principal-standing")).toHaveText("verified");
  await expect(principal.getByTestId("principal-record")).toContainText(company);
  await expect(principal.getByTestId("principal-record").getByRole("link", { name: "certificate" })).toHaveAttribute("href", `/r/${company}`);
  // The linked record is not offered again.
  await expect(principal.getByLabel(/Link another company record/).locator("option")).toHaveText(["No other eligible record"]);
  expect((await api("GET", `/api/v1/records/${agentId}/status`, sandboxKey)).body.agent).toMatchObject({
    principal_standing: "verified", principal_record: { verification_id: company },
  });
  await shots(page, "agent-record-linked");

  // Unlink.
  await submitAction(page, principal.getByTestId("principal-unlink-form").getByRole("button", { name: "Unlink" }));
  await expect(principal.getByTestId("principal-standing")).toHaveText("unlinked");
  await expect(principal.getByTestId("principal-unlink-form")).toHaveCount(0);
  expect((await api("GET", `/api/v1/records/${agentId}/status`, sandboxKey)).body.agent.principal_standing).toBe("unlinked");
  expect(errors).toEqual([]);
});

test("a mandate signed outside the browser, pasted into the form: source_verified, its key and the key's standing on the record page", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = await collectBrowserErrors(page);
  const email = `e2e-agent-signed-${randomUUID().slice(0, 8)}@example.com`;
  const sandboxKey = await signUp(page, email);
  const accountId = String((await api("GET", "/api/v1/account", sandboxKey)).body.id);
  // The principal's mandate key: registered through the API, its private half never leaves this process.
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const keyId = `e2e-treasury-${randomUUID().slice(0, 8)}`;
  const reg = await api("POST", "/api/v1/mandate-keys", sandboxKey, { key_id: keyId, public_key: (publicKey.export({ format: "jwk" }) as { x: string }).x });
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const m = {
    agent_id: "payables-bot", act: "pay_invoices", scope: { asset: "USDC", max_amount: "99.50", network: "base" }, session_id: "sess-signed",
    valid_until: new Date(Date.now() + 10 * 86_400_000).toISOString(), mandate_hash: `sha256:${randomBytes(32).toString("hex")}`,
  };
  const signature = sign(null, Buffer.from(canonicalize({ account_id: accountId, ...m })!), privateKey).toString("base64url");

  await signIn(page, email, "/records/new");
  await page.goto("/records/new?type=agent_authorization");
  await expect(page.getByRole("radio", { name: /An AI agent's mandate/ })).toBeChecked();
  await hydrated(page.getByTestId("create-record"));
  await input(page, "subject").fill("payables-bot");
  await input(page, "claim").fill("payables-bot may pay approved invoices for Proof Records Test Company Ltd.");
  await input(page, "principal").fill("Proof Records Test Company Ltd");
  await input(page, "agent_id").fill(m.agent_id);
  await input(page, "act").fill(m.act);
  await input(page, "scope.asset").fill(m.scope.asset);
  await input(page, "scope.max_amount").fill(m.scope.max_amount);
  await input(page, "scope.network").fill(m.scope.network);
  await input(page, "session_id").fill(m.session_id);
  await input(page, "valid_until").fill(m.valid_until);
  await input(page, "mandate_hash").fill(m.mandate_hash);
  await input(page, "mandate_signature").fill(signature);
  await input(page, "principal_key_id").fill(keyId);
  await page.getByRole("radio", { name: /Source verified/i }).check();
  await page.getByTestId("create-record").click();
  await expect(page).toHaveURL(/\/records\/PRS-[0-9A-Z]{20}$/);
  await expect(page.getByTestId("record-level")).toHaveText("Source verified");
  const mandate = page.getByTestId("agent-mandate");
  await expect(mandate.getByTestId("mandate-hash")).toHaveText(m.mandate_hash);
  await expect(mandate.getByTestId("mandate-key").getByRole("link", { name: keyId })).toHaveAttribute("href", new RegExp(`/keys/${accountId}/${keyId}$`));
  await expect(mandate.getByTestId("mandate-key-status")).toHaveText("active");
  await shots(page, "agent-record-signed");

  // Revoking the key leaves the agent active; its page says the key is revoked.
  expect((await api("DELETE", `/api/v1/mandate-keys/${keyId}`, sandboxKey)).status).toBe(200);
  await page.reload();
  await expect(mandate.getByTestId("mandate-key-status")).toHaveText("revoked");
  await expect(page.getByTestId("record-status")).toContainText("Active");
  expect(errors).toEqual([]);
});
