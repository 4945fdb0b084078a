import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { claimFormSpecs, type ClaimFormSpec, type FormField } from "../lib/claims/form-spec";
import { documentedClaimTypes } from "../lib/claims/registry";
import { writeExchange, type ExchangeData } from "../tests/exchange";
import { LEI } from "../tests/lei-register";
import {
  admin, approvePlanRequest, baseURL, collectBrowserErrors, confirmEmail, goingLiveSection, hydrated, newClientContext, requestPlan, setDns,
  shotBoth, signIn, signedUpPerson, signUp,
} from "./helpers";
import { installTestWallet } from "./test-wallet";

/*
 * Issue 28: every kind of record the portal offers is issued — or, for a reviewed kind,
 * submitted for review — from the browser alone, by a customer who signed up and went live
 * (a plan request an admin approved) in the browser and never saw the API. The
 * kinds are read from the "New record" page, which is generated from the claim-type
 * registry. A kind with a recipe of its own below is issued by it; any other kind gets the
 * recipe generated from its form (`generatedRecipe`: its form's fields filled with its
 * documented example request), so a new simple claim type is covered the moment it is
 * registered — and one the generated recipe cannot fill fails the first test, naming the field.
 * Outside sources are the e2e stand-ins (DNS, LEI register, exchange); the e2e server has no
 * EVM RPC, so an on-chain payment waits for a reviewer.
 */

test.use({ baseURL });

const uniq = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

/** A 1×1 PNG: a bank letter, as far as the upload's content sniffing is concerned. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

type Customer = { page: Page; accountId: string };

/** One admin for the file, in a browser of its own: approves every customer's plan request in /admin. */
let approver: Promise<Page> | undefined;
const anAdmin = (browser: Browser) =>
  (approver ??= (async () => {
    const boss = await signedUpPerson(browser, "every-admin");
    await admin("role", "grant", "--account", boss.accountId, "--role", "admin");
    return boss.page;
  })());

/**
 * A customer who signed up in the browser, confirmed the email, is signed in, and went live
 * the way a customer does: a plan requested on /developers, approved by an admin in /admin.
 * (The live exchange connector is an operator switch of its own, set with the CLI.)
 */
async function liveCustomer(browser: Browser, opts: { liveExchange?: boolean } = {}): Promise<Customer> {
  const boss = await anAdmin(browser);
  const ctx = await newClientContext(browser);
  const page = await ctx.newPage();
  const email = `e2e-every-${uniq()}@example.com`;
  await signUp(page, email);
  await confirmEmail(page, email);
  await signIn(page, email, "/developers");
  const accountId = (await page.locator("dd code").first().innerText()).trim();
  await requestPlan(page, "growth");
  await expect(goingLiveSection(page).getByTestId("plan-request-state")).toHaveAttribute("data-status", "pending");
  await approvePlanRequest(boss, email, "growth");
  await page.reload();
  await expect(page.getByTestId("plan")).toHaveText("growth");
  if (opts.liveExchange) await admin("live-exchange", "enable", "--account", accountId);
  return { page, accountId };
}

const input = (page: Page, name: string) => page.locator(`[name="${name}"]`);

/** Open the form on `kind`, in `environment`; the caller fills it in. */
async function openForm(page: Page, kind: string, environment: "live" | "sandbox" = "live") {
  await page.goto("/records/new");
  const radio = page.locator(`input[name="choice"][value="${kind}"]`);
  await hydrated(radio);
  await radio.check();
  await expect(page.getByTestId("create-record")).toBeVisible();
  await page.locator(`input[name="environment"][value="${environment}"]`).check();
  if (environment === "live") await page.locator('input[name="visibility"][value="public"]').check();
}

/** Submit, land on the record page, expect `status` there; returns the record id. */
async function submit(page: Page, kind: string, status: "Active" | "Pending review"): Promise<string> {
  await shotBoth(page, `records-every-type-${kind === "*" ? "reviewed" : kind}`);
  await page.getByTestId("create-record").click();
  await expect(page.getByTestId("form-error")).toHaveCount(0);
  await expect(page.getByTestId("field-error")).toHaveCount(0);
  await expect(page).toHaveURL(/\/records\/PRS-[0-9A-Z]{20}$/);
  await expect(page.getByTestId("record-status")).toHaveText(status);
  return (await page.getByTestId("record-id").innerText()).trim();
}

/** The public certificate of an issued record: its subject, active, and the kind said in words. */
async function certificate(page: Page, id: string, subject: string) {
  await page.goto(`/r/${id}`);
  await expect(page.getByText(subject).first()).toBeVisible();
  await expect(page.getByTestId("status-badge").first()).toHaveText("Active");
  expect(await page.locator("main").innerText()).not.toMatch(/\b[a-z]+_[a-z_]+\b.*must|must be of type/);
}

/** A live domain proof through /proofs, with the loopback DNS: returns the record id. */
async function proveDomain(page: Page, domain: string): Promise<string> {
  await page.goto("/proofs?environment=live");
  const request = page.getByTestId("domain-request");
  await hydrated(request.getByRole("button", { name: "Request challenge" }));
  await request.getByLabel("Domain").fill(domain);
  await request.getByRole("button", { name: "Request challenge" }).click();
  const box = page.getByTestId("domain-challenge");
  await expect(box.getByTestId("txt-name")).toHaveText(`_prs-challenge.${domain}`);
  setDns(`_prs-challenge.${domain}`, [(await box.getByTestId("txt-value").innerText()).trim()]);
  await expect(box.getByLabel(/^Public record/)).toBeChecked();
  await box.getByRole("button", { name: "Check now" }).click();
  const issued = box.getByTestId("proof-issued");
  await expect(issued).toBeVisible();
  return (await issued.getAttribute("data-id"))!;
}

/** A reviewer (signed up in a browser of their own) sees the submission and the documents attached to it. */
async function reviewerSeesDocuments(browser: Browser, id: string, count: number, facts: Record<string, string> = {}, shotName?: string) {
  const reviewer = await signedUpPerson(browser, "every-rev");
  await admin("role", "grant", "--account", reviewer.accountId, "--role", "reviewer");
  await reviewer.page.goto(`/review/${id}`);
  await expect(reviewer.page.getByTestId("document")).toHaveCount(count);
  // Every fact the checklist asks to confirm is on the page beside the documents (issue 39, item 1).
  for (const [field, value] of Object.entries(facts)) await expect(reviewer.page.locator(`[data-field="${field}"]`)).toContainText(value);
  if (shotName) await shotBoth(reviewer.page, shotName);
  await reviewer.ctx.close();
}

/** The exchange stand-in answers this key with one closed trade (both environments are the one stand-in in e2e). */
function exchangeTrade(apiKey: string, apiSecret: string, orderId: string, t: number) {
  const file = process.env.PRS_E2E_EXCHANGE_TESTNET!;
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as ExchangeData;
  writeExchange(file, {
    ...data,
    keys: { ...data.keys, [apiKey]: { secret: apiSecret, readOnly: 1, userID: 1448939, isMaster: true, parentUid: "0" } },
    closedPnl: { ...data.closedPnl, [apiKey]: [{
      symbol: "ETHUSDT", orderId, side: "Buy", qty: "2", orderPrice: "0", orderType: "Market", execType: "Trade", closedSize: "2",
      cumEntryValue: "6400", avgEntryPrice: "3200", cumExitValue: "6200", avgExitPrice: "3100", closedPnl: "192.4", openFee: "3.84", closeFee: "3.76",
      fillCount: "1", leverage: "3", createdTime: String(t), updatedTime: String(t),
    }] },
    executions: { ...data.executions, [apiKey]: [{ symbol: "ETHUSDT", orderId, side: "Buy", execPrice: "3100", execQty: "2", execTime: String(t - 500), execType: "Trade", isMaker: false, seq: 1 }] },
  });
}

/** "YYYY-MM-DDTHH:MM" in UTC, as the form's date-and-time boxes take it. */
const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16);

async function exchangeRecipe(page: Page, kind: string, environment: "live" | "sandbox") {
  const apiKey = `PRSXSECRET${uniq()}`;
  const apiSecret = `PRSXSECRET-${uniq()}`;
  const orderId = `ord-${uniq()}`;
  const t = Date.now() - 86_400_000;
  exchangeTrade(apiKey, apiSecret, orderId, t);
  await openForm(page, kind, environment);
  await input(page, "subject").fill("ETHUSDT short, closed");
  await input(page, "claim").fill("Closed an ETHUSDT short at a profit.");
  // The environment starts at the only one this kind takes; the category at linear.
  await expect(input(page, "evidence.environment")).toHaveValue(environment === "sandbox" ? "testnet" : "mainnet");
  await input(page, "evidence.api_key").fill(apiKey);
  await expect(input(page, "evidence.api_secret")).toHaveAttribute("type", "password");
  await input(page, "evidence.api_secret").fill(apiSecret);
  await input(page, "evidence.order_id").fill(orderId);
  await input(page, "evidence.start_time").fill(minute(t - 3600_000));
  await input(page, "evidence.end_time").fill(minute(t + 3600_000));
  const id = await submit(page, kind, "Active");
  expect(await page.content()).not.toContain("PRSXSECRET");
  await page.goto(`/r/${id}`);
  await expect(page.getByTestId("proof-scope")).toContainText("this verifies one trade only");
  expect(await page.content()).not.toContain("PRSXSECRET");
}

type Recipe = (browser: Browser) => Promise<void>;

/**
 * Every kind's form as the portal renders it (lib/claims/form-spec.ts, what app/records/new
 * is given), and its definition: this process loads the same registry as the server it tests.
 * The validity days only change help texts.
 */
const SPECS: ClaimFormSpec[] = claimFormSpecs(365);
const EXAMPLES = new Map(documentedClaimTypes().map((m) => [m.type, m.docs.example.value]));

type Plan = { label: string; subject: string; fills: { field: FormField; value: string }[] };

/** The example request's value at a form field's request path ("evidence.payee.value"), as the form takes it. */
function exampleValue(example: Record<string, unknown>, f: FormField): string | undefined {
  let v: unknown = example;
  for (const k of f.name.split(".")) v = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  if (Array.isArray(v)) return v.map(String).join("\n"); // a list: one entry a line
  if (v === undefined || v === null || typeof v === "object") return undefined;
  return f.kind === "datetime" ? new Date(String(v)).toISOString().slice(0, 16) : String(v); // the form's boxes are UTC minutes
}

/**
 * How the generated recipe fills `kind`'s form — every field its example request
 * (`docs.example.value`) gives a value for — or why it cannot: a required field the example
 * leaves empty (and the form does not fill itself), a value that is not one of a choice's
 * options, a field a browser wallet fills, a kind issued through a flow elsewhere.
 */
function generatedPlan(kind: string): Plan | { problem: string } {
  const spec = SPECS.find((s) => s.key === kind);
  const example = EXAMPLES.get(kind);
  if (!spec || !example) return { problem: `${kind}: not a claim type of this registry` };
  if (spec.href) return { problem: `${kind}: issued through ${spec.href}, not the form` };
  const fills: Plan["fills"] = [];
  for (const field of spec.fields) {
    if (field.kind === "wallet") return { problem: `${kind}: form field ${field.name} is filled by a browser wallet` };
    const value = exampleValue(example, field);
    if (value === undefined) {
      // A required date starts at now, a field with a default at it (new-record-form.tsx).
      const filledByForm = field.defaultValue !== undefined || field.kind === "datetime";
      if (field.required && !filledByForm) return { problem: `${kind}: form field ${field.name} has no value in docs.example.value to fill it with` };
      continue;
    }
    if (field.kind === "files") return { problem: `${kind}: form field ${field.name} takes files` };
    if (field.options && !field.options.some((o) => o.value === value)) {
      return { problem: `${kind}: form field ${field.name}: the example's "${value}" is not one of its options` };
    }
    fills.push({ field, value });
  }
  const subject = fills.find((f) => f.field.name === "subject")?.value;
  if (!subject) return { problem: `${kind}: the example names no subject` };
  return { label: spec.label, subject, fills };
}

/**
 * The recipe of a kind without one of its own: its form filled from its example, submitted live
 * and public; the record page shows it issued (Active), of its kind in words, about its subject,
 * and so does its public certificate.
 */
async function generatedRecipe(browser: Browser, kind: string) {
  const plan = generatedPlan(kind);
  if ("problem" in plan) throw new Error(`no recipe for ${plan.problem}`);
  const { page } = await liveCustomer(browser);
  await openForm(page, kind);
  for (const { field, value } of plan.fills) {
    if (field.kind === "choice") await page.locator(`input[name="${field.name}"][value="${value}"]`).check();
    else if (field.kind === "select") await input(page, field.name).selectOption(value);
    else await input(page, field.name).fill(value);
  }
  const id = await submit(page, kind, "Active");
  await expect(page.getByTestId("record-kind")).toContainText(plan.label);
  await expect(page.locator("dt:text-is('Subject') + dd")).toHaveText(plan.subject);
  await certificate(page, id, plan.subject);
}

/**
 * How each kind that needs more than its form filled from its example is issued from the
 * browser (a challenge, a wallet, a register's stand-in, documents, an error to show first).
 * `apiOnly` names a kind the portal deliberately sends to the API documentation, and why: the
 * test checks the form says so.
 */
const RECIPES: Record<string, Recipe | { apiOnly: string }> = {
  company_identity: async (browser) => {
    const { page } = await liveCustomer(browser);
    await openForm(page, "company_identity");
    await input(page, "subject").fill("Proof Records Test Company Ltd");
    await input(page, "claim").fill("Proof Records Test Company Ltd is registered under this LEI.");
    await input(page, "evidence.lei").fill(LEI.active);
    const id = await submit(page, "company_identity", "Active");
    await expect(page.getByTestId("record-level")).toHaveText("Source verified");
    await certificate(page, id, "Proof Records Test Company Ltd");
  },

  domain_ownership: async (browser) => {
    const { page } = await liveCustomer(browser);
    const domain = `${uniq()}.example.com`;
    const id = await proveDomain(page, domain);
    await certificate(page, id, domain);
  },

  wallet_ownership: async (browser) => {
    const { page } = await liveCustomer(browser);
    const wallet = privateKeyToAccount(generatePrivateKey());
    await installTestWallet(page, wallet.address, () => wallet, []);
    await page.goto("/proofs?environment=live");
    const part = page.getByTestId("wallet-proof");
    await part.getByRole("button", { name: "Connect browser wallet" }).click();
    await expect(part.getByTestId("wallet-address")).toHaveText(wallet.address);
    await expect(part).not.toContainText("Injected");
    await part.getByLabel("Network").selectOption("ethereum");
    await part.getByRole("button", { name: "Request challenge" }).click();
    await expect(part.getByTestId("wallet-message")).toContainText(wallet.address);
    await expect(part.getByLabel(/^Public record/)).toBeChecked();
    await part.getByRole("button", { name: "Sign with wallet and submit" }).click();
    const issued = part.getByTestId("proof-issued");
    await expect(issued).toBeVisible();
    await certificate(page, (await issued.getAttribute("data-id"))!, wallet.address);
  },

  evm_transaction: async (browser) => {
    const { page } = await liveCustomer(browser);
    await openForm(page, "evm_transaction");
    await input(page, "subject").fill("Payment from Acme Trading Ltd to Globex");
    await input(page, "claim").fill("Acme Trading Ltd paid Globex 0.5 ETH.");
    await input(page, "evidence.network").selectOption("ethereum");
    await input(page, "evidence.tx_hash").fill(`0x${randomBytes(32).toString("hex")}`);
    // No RPC for the network in the e2e server: the source is unreachable, a reviewer checks it.
    await submit(page, "evm_transaction", "Pending review");
    await expect(page.getByTestId("review-outcome")).not.toBeEmpty();
  },

  agent_authorization: async (browser) => {
    const { page } = await liveCustomer(browser);
    await openForm(page, "agent_authorization");
    await input(page, "subject").fill("invoice-agent-7");
    await input(page, "claim").fill("invoice-agent-7 may pay approved invoices for Acme Trading Ltd.");
    await input(page, "principal").fill("Acme Trading Ltd");
    await input(page, "agent_id").fill("invoice-agent-7");
    await input(page, "act").fill("pay_invoices");
    await input(page, "scope.asset").fill("USDC");
    await input(page, "scope.max_amount").fill("250.00");
    await input(page, "scope.network").fill("base");
    const id = await submit(page, "agent_authorization", "Active");
    await certificate(page, id, "invoice-agent-7");
  },

  verified_listing: async (browser) => {
    const { page, accountId } = await liveCustomer(browser);
    // A listing speaks only for its own operator: the account is the verified organisation it names.
    await admin("organisation", "verify", "--account", accountId, "--legal-name", "Seaview Apartments Ltd");
    const domain = `${uniq()}.example.com`;
    const domainRecord = await proveDomain(page, domain);
    await openForm(page, "verified_listing");
    // Payee and licence are sections of their own fields, not text boxes for JSON.
    await expect(page.getByTestId("section-evidence.payee")).toContainText("Payee");
    await expect(page.getByTestId("section-evidence.licence")).toContainText("Licence");
    await input(page, "subject").fill("Seaview Apartments");
    await input(page, "claim").fill("Seaview Apartments runs listing 4471 and is paid to its own bank account.");
    await input(page, "evidence.operator").fill("Seaview Apartments Ltd");
    await input(page, "evidence.listing_url").fill(`https://www.${domain}/listing/4471`);
    await input(page, "evidence.domain").fill(domain);
    await input(page, "evidence.payee.type").selectOption({ label: "A bank account (IBAN)" });
    // A wrong IBAN is refused beside its own field, in words.
    await input(page, "evidence.payee.value").fill("DE00 0000 0000 0000 0000 00");
    await input(page, "evidence.domain_record").fill(domainRecord);
    await page.getByTestId("create-record").click();
    const payeeError = page.getByTestId("field-evidence.payee.value").getByTestId("field-error");
    await expect(payeeError).toContainText("Not a valid IBAN");
    await expect(input(page, "evidence.payee.value")).toBeFocused();
    await expect(input(page, "evidence.domain_record")).toHaveValue(domainRecord);
    await shotBoth(page, "records-every-type-verified_listing-error");

    await input(page, "evidence.payee.value").fill("DE89 3704 0044 0532 0130 00");
    await input(page, "evidence.payee.account_name").fill("Seaview Apartments Ltd");
    await page.getByTestId("field-documents").locator("input[type=file]").setInputFiles({ name: "bank-letter.png", mimeType: "image/png", buffer: PNG });
    const id = await submit(page, "verified_listing", "Pending review");
    await expect(page.getByTestId("review-outcome")).toContainText("IBAN");
    await expect(page.getByTestId("record-documents")).toContainText("bank-letter.png");
    await reviewerSeesDocuments(browser, id, 1, {
      "evidence.operator": "Seaview Apartments Ltd", "evidence.listing_url": `https://www.${domain}/listing/4471`, "evidence.domain": domain,
      "evidence.payee.value": "DE89370400440532013000", "evidence.payee.account_name": "Seaview Apartments Ltd", "evidence.reviewed_parts": "the payee",
    }, "review-verified_listing");
  },

  dex_control: async (browser) => {
    const { page } = await liveCustomer(browser);
    const domain = `${uniq()}.example.com`;
    const domainRecord = await proveDomain(page, domain);
    const wallet = privateKeyToAccount(generatePrivateKey());
    const signatures: Parameters<typeof installTestWallet>[3] = [];
    await installTestWallet(page, wallet.address, () => wallet, signatures);
    await openForm(page, "dex_control");
    // The wallet is the subject: connected, its challenge requested for this kind and signed here, never typed.
    await expect(input(page, "subject")).toHaveAttribute("type", "hidden");
    const step = page.getByTestId("wallet-step");
    await step.getByRole("button", { name: "Connect browser wallet" }).click();
    await expect(step.getByTestId("wallet-address")).toHaveText(wallet.address);
    await step.getByRole("button", { name: "Request challenge" }).click();
    await expect(step.getByTestId("wallet-message")).toContainText(wallet.address);
    await expect(step.getByTestId("wallet-message")).toContainText("dex_control");
    await shotBoth(page, "records-every-type-dex_control-challenge");
    await step.getByRole("button", { name: "Sign with wallet" }).click();
    await expect(step.getByTestId("wallet-signed")).toContainText(wallet.address);
    expect(signatures).toHaveLength(1);
    await input(page, "claim").fill(`Acme Trading Ltd controls exchange wallet ${wallet.address}, ${domain} and @acmetrade.`);
    await input(page, "evidence.domain").fill(domain);
    await input(page, "evidence.domain_record").fill(domainRecord);
    await input(page, "evidence.social_handle").fill("@acmetrade");
    // Without the wallet's role: refused beside that field, in words, and the signature is kept (not asked again).
    await page.getByTestId("create-record").click();
    const roleError = page.getByTestId("field-subtype").getByTestId("field-error");
    await expect(roleError).toContainText("“Wallet owner”");
    await expect(roleError).not.toContainText("wallet_owner");
    await expect(step.getByTestId("wallet-signed")).toContainText(wallet.address);
    await expect(input(page, "evidence.domain_record")).toHaveValue(domainRecord);
    await input(page, "subtype").selectOption({ label: "Wallet owner" });
    await submit(page, "dex_control", "Pending review");
    expect(signatures).toHaveLength(1);
    await expect(page.getByTestId("review-outcome")).toContainText("The wallet signature checked out");
    await expect(page.getByText(wallet.address).first()).toBeVisible();
  },

  exchange_verified_trade_test: async (browser) => {
    const { page } = await liveCustomer(browser);
    await exchangeRecipe(page, "exchange_verified_trade_test", "sandbox");
  },

  exchange_verified_trade: async (browser) => {
    const { page } = await liveCustomer(browser, { liveExchange: true });
    await exchangeRecipe(page, "exchange_verified_trade", "live");
  },

  "*": async (browser) => {
    const { page } = await liveCustomer(browser);
    await openForm(page, "*");
    await input(page, "claim_type").fill("press_coverage");
    await input(page, "subject").fill("Acme Trading Ltd");
    await input(page, "claim").fill("Acme Trading Ltd was featured in the Financial Times.");
    await input(page, "source_name").fill("Financial Times");
    await input(page, "source_url").fill("https://www.ft.com/content/acme-trading");
    await page.getByTestId("field-documents").locator("input[type=file]").setInputFiles({ name: "article.png", mimeType: "image/png", buffer: PNG });
    const id = await submit(page, "*", "Pending review");
    await expect(page.getByTestId("record-kind")).toContainText("Press coverage");
    await expect(page.getByTestId("record-documents")).toContainText("article.png");
    await reviewerSeesDocuments(browser, id, 1);
  },
};

test("every kind of record the portal offers has a browser recipe here", async ({ browser }) => {
  const { page } = await liveCustomer(browser);
  const errors = await collectBrowserErrors(page);
  await page.goto("/records/new");
  const offered = await page.locator('input[name="choice"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  const elsewhere = await page.getByTestId("elsewhere").locator("a[data-key]").evaluateAll((els) => els.map((e) => e.getAttribute("data-key")!));
  const kinds = [...offered, ...elsewhere];
  expect(kinds.length).toBeGreaterThanOrEqual(10);
  // The forms this file generates recipes from are the ones the portal offers.
  expect([...kinds].sort(), "the registry this file loads is not the server's (a stale build?)").toEqual(SPECS.map((s) => s.key).sort());
  const unfillable = kinds.filter((k) => !(k in RECIPES)).flatMap((k) => {
    const plan = generatedPlan(k);
    return "problem" in plan ? [plan.problem] : [];
  });
  expect(unfillable, `no browser recipe in e2e/records-every-type.spec.ts, and the generated one cannot fill the form:\n${unfillable.join("\n")}`).toEqual([]);
  // Nothing stale: every recipe is for a kind the portal offers.
  expect(Object.keys(RECIPES).filter((k) => !kinds.includes(k))).toEqual([]);
  // A kind the portal sends elsewhere links there and asks nothing.
  for (const [kind, r] of Object.entries(RECIPES)) {
    if (typeof r === "function") continue;
    expect(elsewhere, `${kind} is api-only (${r.apiOnly}) but the form offers it`).toContain(kind);
  }
  expect(errors).toEqual([]);
});

for (const [kind, recipe] of Object.entries(RECIPES)) {
  if (typeof recipe !== "function") continue;
  test(`${kind === "*" ? "a reviewed claim of another kind" : kind}: issued (or submitted for review) from the browser alone`, async ({ browser }) => {
    test.setTimeout(120_000);
    await recipe(browser);
  });
}

for (const { key } of SPECS) {
  if (key in RECIPES) continue;
  test(`${key}: issued from the browser alone (recipe generated from its form and example)`, async ({ browser }) => {
    test.setTimeout(120_000);
    await generatedRecipe(browser, key);
  });
}
