import { generateKeyPairSync, sign as nodeSign } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import { importJWK } from "jose";
import { startReceiver, waitFor } from "../tests/webhook-receiver";
import { baseURL, forge, hydrated, issue, newClientContext, openConfirm, ownClientAddress, shot, shotBoth, signInOnPage, signUp, submitAction } from "./helpers";

// Each test (and each extra browser) signs up from a client address of its own: no test spends another's rate-limit window.
// Clipboard access for the Copy buttons.
test.use({ baseURL, extraHTTPHeaders: ownClientAddress, permissions: ["clipboard-read", "clipboard-write"] });

/** The public read-back of an account's key, fetched from the test process without any session or key. */
async function publicKey(owner: { accountId: string }, keyId: string) {
  const r = await fetch(`${baseURL}/keys/${encodeURIComponent(owner.accountId)}/${encodeURIComponent(keyId)}`);
  return { status: r.status, cors: r.headers.get("access-control-allow-origin"), body: await r.json() };
}

/** The account behind an API key (its id is what a mandate signs and where its keys are read back). */
async function accountOf(key: string): Promise<{ accountId: string }> {
  const r = await fetch(`${baseURL}/api/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
  return { accountId: String(((await r.json()) as { id: string }).id) };
}

/** Another account (its own browser context and client address) with a mandate key registered through the API. */
async function otherAccountMandateKey(browser: Browser): Promise<{ keyId: string; owner: { accountId: string } }> {
  const ctx = await newClientContext(browser);
  try {
    const key = await signUp(await ctx.newPage(), `e2e-mk-other-${Date.now()}@example.com`);
    const keyId = `e2e-other-${Date.now()}`;
    const x = (generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }) as { x: string }).x;
    const r = await fetch(`${baseURL}/api/v1/mandate-keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ key_id: keyId, public_key: x }),
    });
    expect(r.status).toBe(201);
    return { keyId, owner: await accountOf(key) };
  } finally {
    await ctx.close();
  }
}

test("developers: mandate keys — register, list, read back publicly, revoke", async ({ page, browser }) => {
  const email = `e2e-mk-${Date.now()}@example.com`;
  const owner = await accountOf(await signUp(page, email));
  await page.goto("/developers");
  await signInOnPage(page, email, /\/developers$/);

  const section = page.locator("section", { has: page.getByRole("heading", { name: "Mandate keys" }) });
  await expect(section.getByTestId("no-mandate-keys")).toBeVisible();
  await expect(section.getByTestId("public-key-help")).toContainText("Paste only the public half");
  await expect(section.getByTestId("public-key-help")).toContainText("Never paste a private key");
  // No plan: live is offered but disabled.
  await expect(section.getByLabel("Environment").locator('option[value="live"]')).toBeDisabled();

  // The principal's key pair is made here (OpenSSL); only x ever goes to the portal.
  const { privateKey } = generateKeyPairSync("ed25519");
  const jwk = privateKey.export({ format: "jwk" }) as { x: string; d: string };
  const keyId = `e2e-treasury-${Date.now()}`;

  // A private key pasted by mistake: refused, not echoed, nothing listed.
  const secretKey = Buffer.concat([Buffer.from(jwk.d, "base64url"), Buffer.from(jwk.x, "base64url")]).toString("base64url");
  await section.getByLabel("Key id", { exact: true }).fill(keyId);
  await section.getByLabel(/^Public key/).fill(secretKey);
  await section.getByRole("button", { name: "Register mandate key" }).click();
  await expect(section.locator("[role=alert]")).toContainText("Never send a private key");
  expect(await page.content()).not.toContain(secretKey);
  expect(await page.content()).not.toContain(jwk.d);
  await expect(section.getByTestId("no-mandate-keys")).toBeVisible();
  expect((await publicKey(owner, keyId)).status).toBe(404);
  // The key id stays in its field; what was pasted as the public key is not put back (it was a private key).
  await expect(section.getByLabel("Key id", { exact: true })).toHaveValue(keyId);
  await expect(section.getByLabel(/^Public key/)).toHaveValue("");
  await expect(section.getByLabel(/^Public key/)).toHaveAttribute("aria-invalid", "true");
  await shotBoth(page, "developers-mandate-key-refused");

  // Bytes that are no Ed25519 point: a clear message too.
  await section.getByLabel("Key id", { exact: true }).fill(keyId);
  await section.getByLabel(/^Public key/).fill(Buffer.from(jwk.x, "base64url").subarray(0, 31).toString("base64url"));
  await section.getByRole("button", { name: "Register mandate key" }).click();
  await expect(section.locator("[role=alert]")).toContainText("exactly 32 bytes");

  // The public half: registered, listed as active, linked to its public read-back.
  await section.getByLabel("Key id", { exact: true }).fill(keyId);
  await section.getByLabel(/^Public key/).fill(jwk.x);
  await section.getByRole("button", { name: "Register mandate key" }).click();
  await expect(section.locator("[role=status]")).toContainText(`Registered mandate key ${keyId} (sandbox)`);
  const row = section.locator(`[data-testid="mandate-key-row"][data-key-id="${keyId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("sandbox");
  await expect(row.getByTestId("mandate-key-status")).toHaveText("active");
  await expect(row.getByRole("link", { name: keyId })).toHaveAttribute("href", `/keys/${owner.accountId}/${keyId}`);
  // Its id (what records cite as principal_key_id) can be copied.
  await row.getByRole("button", { name: `Copy key id ${keyId}` }).click();
  await expect(row.getByRole("button", { name: `Copy key id ${keyId}` })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(keyId);
  await shot(page, "developers-mandate-key");

  // Anyone can read it back — and its JWK verifies a signature made with the private half (jose + WebCrypto).
  const pub = await publicKey(owner, keyId);
  expect(pub.status).toBe(200);
  expect(pub.cors).toBe("*");
  expect(pub.body).toMatchObject({ object: "mandate_key", key_id: keyId, algorithm: "Ed25519", public_key: jwk.x, status: "active", revoked_at: null });
  expect(JSON.stringify(pub.body)).not.toContain(email);
  // Its owner named as every public answer names an account: this one is no verified organisation.
  expect(pub.body).toMatchObject({ account_id: owner.accountId, account: { name_verified: false, organisation: null } });
  const message = new TextEncoder().encode(JSON.stringify({ agent_id: "agent-7", act: "pay_invoice" }));
  const signature = nodeSign(null, message, privateKey);
  const verifyKey = (await importJWK(pub.body.jwk, "EdDSA")) as CryptoKey;
  expect(await crypto.subtle.verify("Ed25519", verifyKey, signature, message)).toBe(true);

  // The link opens the public JSON.
  await row.getByRole("link", { name: keyId }).click();
  await expect(page).toHaveURL(new RegExp(`/keys/${owner.accountId}/${keyId}$`));
  expect(JSON.parse(await page.locator("body").innerText())).toMatchObject({ key_id: keyId, status: "active" });
  await page.goBack();

  // The same id again is taken.
  await section.getByLabel("Key id", { exact: true }).fill(keyId);
  await section.getByLabel(/^Public key/).fill(jwk.x);
  await section.getByRole("button", { name: "Register mandate key" }).click();
  await expect(section.locator("[role=alert]")).toContainText("already registered");
  // Both stay: the id to change, and the public key (it is one, so it may be shown).
  await expect(section.getByLabel("Key id", { exact: true })).toHaveValue(keyId);
  await expect(section.getByLabel(/^Public key/)).toHaveValue(jwk.x);
  await expect(section.getByLabel("Key id", { exact: true })).toHaveAttribute("aria-invalid", "true");

  // A forged form naming another account's key changes nothing: the action acts only on the session's account.
  const { keyId: foreignId, owner: foreignOwner } = await otherAccountMandateKey(browser);
  const confirmRevoke = await openConfirm(row, `Revoke mandate key ${keyId}`, "Yes, revoke");
  await forge(row.locator("form"), "key_id", foreignId);
  await submitAction(page, confirmRevoke, foreignId);
  await page.reload();
  await expect(row.getByTestId("mandate-key-status")).toHaveText("active");
  expect((await publicKey(foreignOwner, foreignId)).body.status).toBe("active");
  await expect(section.locator(`[data-testid="mandate-key-row"][data-key-id="${foreignId}"]`)).toHaveCount(0);

  // Revoke (after the confirmation step): marked revoked here and in the public read-back; the id stays taken.
  await (await openConfirm(row, `Revoke mandate key ${keyId}`, "Yes, revoke")).click();
  await expect(row.getByTestId("mandate-key-status")).toContainText("revoked");
  await expect(row.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  const after = await publicKey(owner, keyId);
  expect(after.body).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
  await shotBoth(page, "developers-mandate-key-revoked");
});

test("developers: webhook destinations — add, secret shown once and signing deliveries, delete", async ({ page }) => {
  const rx = await startReceiver();
  try {
    const email = `e2e-wh-${Date.now()}@example.com`;
    const sandboxKey = await signUp(page, email);
    await page.goto("/developers");
    await signInOnPage(page, email, /\/developers$/);

    const section = page.locator("section", { has: page.getByRole("heading", { name: "Webhook destinations" }) });
    await expect(section.getByTestId("no-webhooks")).toBeVisible();
    await expect(section.getByLabel("Environment").locator('option[value="live"]')).toBeDisabled();

    // Not a webhook scheme: refused with the API's message, under the URL; everything typed and ticked stays.
    await hydrated(section.getByRole("button", { name: "Add webhook destination" }));
    await section.getByLabel("Destination URL").fill("ftp://files.example/hook");
    await section.getByLabel("record.rejected").check();
    await section.getByLabel("Description (optional)").fill("Kept after a refusal");
    await section.getByRole("button", { name: "Add webhook destination" }).click();
    await expect(section.locator("[role=alert]")).toContainText("https://");
    await expect(section.getByTestId("no-webhooks")).toBeVisible();
    await expect(section.getByLabel("Destination URL")).toHaveValue("ftp://files.example/hook");
    await expect(section.getByLabel("Destination URL")).toHaveAttribute("aria-invalid", "true");
    await expect(section.getByLabel("record.rejected")).toBeChecked();
    await expect(section.getByLabel("Description (optional)")).toHaveValue("Kept after a refusal");
    await shotBoth(page, "developers-webhook-refused");
    await section.getByLabel("record.rejected").uncheck();

    const ep = rx.endpoint("e2e-portal");
    await section.getByLabel("Destination URL").fill(ep.url);
    await section.getByLabel("record.issued").check();
    await section.getByLabel("Description (optional)").fill("E2E receiver");
    await section.getByRole("button", { name: "Add webhook destination" }).click();
    const secret = (await section.getByTestId("secret-value").innerText()).trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(section.getByTestId("once-secret")).toContainText("shown only this once");
    const row = section.getByTestId("webhook-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(ep.url);
    await expect(row).toContainText("record.issued");
    await expect(row).toContainText("sandbox");
    await expect(row).toContainText("enabled");
    await section.getByRole("button", { name: "Copy webhook signing secret" }).click();
    await expect(section.getByRole("button", { name: "Copy webhook signing secret" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shotBoth(page, "developers-webhook-secret");

    // The API key of the same account and environment sees it, without the secret.
    const listed = await (await fetch(`${baseURL}/api/v1/webhooks`, { headers: { Authorization: `Bearer ${sandboxKey}` } })).json();
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ url: ep.url, events: ["record.issued"], environment: "sandbox", description: "E2E receiver" });
    expect(JSON.stringify(listed)).not.toContain(secret);

    // The secret shown is the one deliveries are signed with (checked by the standardwebhooks verifier).
    ep.setSecret(secret);
    const id = await issue(sandboxKey, "Portal Webhook Ltd");
    const got = await waitFor(() => ep.received().find((r) => r.type === "record.issued"), 15_000);
    expect(ep.rejected()).toBe(0); // every delivery verified (an unverified one is refused, not recorded)
    expect(got.body.data.record.verification_id).toBe(id);

    // A mandate key registered through the API shows up here too (same account, same environment).
    const x = (generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }) as { x: string }).x;
    const apiKeyId = `e2e-api-${Date.now()}`;
    const reg = await fetch(`${baseURL}/api/v1/mandate-keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sandboxKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ key_id: apiKeyId, public_key: x }),
    });
    expect(reg.status).toBe(201);

    // Shown once: gone after a reload.
    await page.reload();
    await expect(section.getByTestId("once-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await expect(page.locator(`[data-testid="mandate-key-row"][data-key-id="${apiKeyId}"]`)).toBeVisible();
    await shot(page, "developers-mandate-keys-webhooks");

    // Delete, after the confirmation step: gone here and from the API.
    await (await openConfirm(row, `Delete webhook ${ep.url}`, "Yes, delete")).click();
    await expect(section.getByTestId("no-webhooks")).toBeVisible();
    const after = await (await fetch(`${baseURL}/api/v1/webhooks`, { headers: { Authorization: `Bearer ${sandboxKey}` } })).json();
    expect(after.data).toEqual([]);
  } finally {
    await rx.close();
  }
});

test("developers: a restricted key — choose its scopes, see them beside the key, and it does only that", async ({ page }) => {
  const email = `e2e-scoped-${Date.now()}@example.com`;
  const fullKey = await signUp(page, email, undefined, { staySignedIn: true });
  await page.goto("/developers");
  const restricted = page.getByTestId("restricted-key");
  await restricted.locator("summary").click();
  await hydrated(restricted.getByRole("button", { name: "Create restricted key" }));
  // None chosen: refused, nothing made.
  await submitAction(page, restricted.getByRole("button", { name: "Create restricted key" }));
  await expect(page.getByRole("alert").filter({ hasText: "Choose at least one scope" })).toBeVisible();
  await restricted.getByRole("checkbox", { name: /^records:read/ }).check();
  await restricted.getByRole("checkbox", { name: /^webhooks/ }).check();
  await submitAction(page, restricted.getByRole("button", { name: "Create restricted key" }));
  await expect(page.getByText(/only records:read, webhooks/).first()).toBeVisible();
  const key = (await page.getByTestId("secret-value").innerText()).trim();
  expect(key).toMatch(/^prs_sandbox_/);
  await shotBoth(page, "developers-restricted-key");

  const call = (method: string, path: string, k: string, body?: unknown) =>
    fetch(`${baseURL}${path}`, { method, headers: { Authorization: `Bearer ${k}`, "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
  const rec = await issue(fullKey, "Scoped Keys Ltd");
  expect((await call("GET", `/api/v1/records/${rec}`, key)).status).toBe(200);
  expect((await call("GET", "/api/v1/events", key)).status).toBe(200);
  const refused = await call("POST", `/api/v1/records/${rec}/lifecycle`, key, { operation: "revoke", reason: "not allowed" });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("insufficient_scope");

  await page.reload();
  const rows = page.getByTestId("key-row");
  await expect(rows.filter({ hasText: "only records:read, webhooks" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "all scopes" })).toHaveCount(1); // the key made at sign-up
});
