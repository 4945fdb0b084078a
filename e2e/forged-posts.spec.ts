import { expect, test, type Browser } from "@playwright/test";
import { admin, baseURL, forge, issue, newClientContext, openConfirm, ownClientAddress, signInOnPage, signUp, submitAction } from "./helpers";

/**
 * Forged portal posts. A signed-in customer's browser rewrites the hidden fields of a real
 * portal form (the server action, its id and the session are genuine) to name another
 * account's record, key or webhook; the server must change nothing of that account's. Admin
 * forms posted with a non-admin's session must be refused. Each case also submits the
 * unmodified form, to show the forged post went through the same working action. (The
 * mandate-key revoke form is forged the same way in developers.spec.ts.)
 */
test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

type Api = { status: number; body: any };
async function api(method: string, p: string, key: string, body?: unknown): Promise<Api> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (body) Object.assign(headers, { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() });
  const r = await fetch(`${baseURL}${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: await r.json() };
}

/** A customer signed up and signed in on /developers in a browser of its own. */
async function customer(browser: Browser, tag: string) {
  const ctx = await newClientContext(browser);
  const page = await ctx.newPage();
  const email = `e2e-forge-${tag}-${Date.now()}@example.com`;
  const key = await signUp(page, email);
  await page.goto("/developers");
  await signInOnPage(page, email, /\/developers$/);
  const accountId = (await page.locator("dd code").first().innerText()).trim();
  expect(accountId).toMatch(/^acct_/);
  return { ctx, page, email, key, accountId };
}

/** The victim: an account made by the operator, with a record, a second key and a webhook. */
async function victim() {
  const acct = (await admin("account", "create", "--email", `e2e-victim-${Date.now()}@example.com`)) as { account_id: string; sandbox_key: string };
  const k = (await admin("key", "create", "--account", acct.account_id, "--env", "sandbox")) as { key: string; key_id: string };
  const recordId = await issue(acct.sandbox_key, "Victim Holdings Ltd");
  const hook = await api("POST", "/api/v1/webhooks", acct.sandbox_key, { url: "http://127.0.0.1:9/victim", events: ["principal_link.changed"] });
  expect(hook.status).toBe(201);
  return { accountId: acct.account_id, key: acct.sandbox_key, secondKey: k.key, secondKeyId: k.key_id, recordId, webhookId: hook.body.id as string };
}

test("lifecycleAction naming another account's record changes nothing of it", async ({ browser }) => {
  const v = await victim();
  const m = await customer(browser, "lifecycle");
  const own = await issue(m.key, "Mallory Trading Ltd");
  const victimBefore = (await api("GET", `/api/v1/records/${v.recordId}`, v.key)).body;
  try {
    const page = m.page;
    for (const op of ["suspend", "revoke"]) {
      // The other environment named as well: still not found.
      for (const environment of ["sandbox", "live"]) {
        await page.goto(`/records/${own}`);
        const form = page.getByTestId(`lifecycle-${op}`);
        await forge(form, "id", v.recordId);
        await forge(form, "environment", environment);
        await form.getByLabel(/^Reason/).fill("forged by another account");
        if (op === "revoke") await form.getByLabel(/I understand this cannot be undone/).check();
        await submitAction(page, form.getByRole("button", { name: op === "suspend" ? "Suspend" : "Revoke" }), v.recordId);
        await expect(page.locator("main [role=alert]")).toContainText(`No record ${v.recordId}`);
      }
    }
    expect((await api("GET", `/api/v1/records/${v.recordId}`, v.key)).body).toEqual(victimBefore);
    expect((await api("GET", `/api/v1/records/${v.recordId}/status`, v.key)).body.status).toBe("active");
    // The same form, unmodified, works on the customer's own record.
    await expect(page.getByTestId("record-status")).toHaveText("Active");
    const suspend = page.getByTestId("lifecycle-suspend");
    await suspend.getByLabel(/^Reason/).fill("my own record");
    await submitAction(page, suspend.getByRole("button", { name: "Suspend" }));
    await expect(page.getByTestId("record-status")).toHaveText("Suspended");
  } finally {
    await m.ctx.close();
  }
});

test("revokeKeyAction naming another account's key changes nothing of it", async ({ browser }) => {
  const v = await victim();
  const m = await customer(browser, "revoke-key");
  try {
    const page = m.page;
    const row = page.getByTestId("key-row").first();
    const ownKeyId = (await row.getAttribute("data-key-id"))!;
    const form = row.locator("form");
    const confirm = await openConfirm(row, /^Revoke/, "Yes, revoke");
    await forge(form, "keyId", v.secondKeyId);
    await submitAction(page, confirm, v.secondKeyId);
    expect((await api("GET", "/api/v1/usage", v.secondKey)).status).toBe(200);
    await page.reload();
    await expect(page.locator(`[data-testid="key-row"][data-key-id="${ownKeyId}"]`)).toContainText("active");
    await expect(page.locator(`[data-testid="key-row"][data-key-id="${v.secondKeyId}"]`)).toHaveCount(0);
    // Unmodified, it revokes the customer's own key.
    await submitAction(page, await openConfirm(page.locator(`[data-testid="key-row"][data-key-id="${ownKeyId}"]`), /^Revoke/, "Yes, revoke"));
    expect((await api("GET", "/api/v1/usage", m.key)).status).toBe(401);
    expect((await api("GET", "/api/v1/usage", v.secondKey)).status).toBe(200);
  } finally {
    await m.ctx.close();
  }
});

test("webhook actions (delete, test event, rotate secret) naming another account's webhook change nothing of it", async ({ browser }) => {
  const v = await victim();
  const m = await customer(browser, "webhook");
  try {
    const own = await api("POST", "/api/v1/webhooks", m.key, { url: "http://127.0.0.1:9/mallory", events: ["principal_link.changed"] });
    expect(own.status).toBe(201);
    const page = m.page;
    await page.reload();
    const row = page.locator(`[data-testid="webhook-row"][data-webhook-id="${own.body.id}"]`);
    for (const environment of ["sandbox", "live"]) {
      const confirm = await openConfirm(row, /^Delete webhook/, "Yes, delete");
      const form = row.locator("form").filter({ has: page.getByRole("button", { name: "Yes, delete" }) });
      await forge(form, "id", v.webhookId);
      await forge(form, "environment", environment);
      await submitAction(page, confirm, v.webhookId);
      await page.reload();
    }
    // The "Send test event" form, forged the same way: refused as not found; nothing is sent to the victim's endpoint.
    for (const environment of ["sandbox", "live"]) {
      const form = row.getByTestId("webhook-test-form");
      await forge(form, "id", v.webhookId);
      await forge(form, "environment", environment);
      await submitAction(page, form.getByRole("button", { name: /^Send a test event/ }), v.webhookId);
      await expect(form.getByRole("alert")).toBeVisible();
      await page.reload();
    }
    // The "Rotate secret" form, forged the same way: refused; the victim's secret is not rotated.
    for (const environment of ["sandbox", "live"]) {
      const form = row.getByTestId("webhook-rotate-form");
      await forge(form, "id", v.webhookId);
      await forge(form, "environment", environment);
      await submitAction(page, form.getByRole("button", { name: /^Rotate the signing secret/ }), v.webhookId);
      await expect(row.getByRole("alert")).toBeVisible();
      await expect(row.getByTestId("secret-value")).toHaveCount(0);
      await page.reload();
    }
    expect((await api("GET", `/api/v1/webhooks/${v.webhookId}/deliveries`, v.key)).body.data).toEqual([]);
    const listed = await api("GET", "/api/v1/webhooks", v.key);
    expect(listed.body.data.map((w: { id: string; status: string }) => [w.id, w.status])).toEqual([[v.webhookId, "enabled"]]);
    expect(listed.body.data[0].previous_secret_expires_at).toBeNull(); // never rotated
    await expect(row).toBeVisible();
    // Unmodified, it deletes the customer's own webhook.
    await submitAction(page, await openConfirm(row, /^Delete webhook/, "Yes, delete"));
    expect((await api("GET", "/api/v1/webhooks", m.key)).body.data).toEqual([]);
    expect((await api("GET", "/api/v1/webhooks", v.key)).body.data).toHaveLength(1);
  } finally {
    await m.ctx.close();
  }
});

test("admin actions posted with a non-admin's session are refused and change nothing", async ({ browser }) => {
  const boss = await customer(browser, "admin");
  const nobody = await customer(browser, "non-admin");
  const target = await customer(browser, "target");
  try {
    await admin("role", "grant", "--account", boss.accountId, "--role", "admin");
    const adminSession = await boss.ctx.cookies();
    const page = boss.page;
    await page.goto(`/admin?q=${encodeURIComponent(target.email)}`);
    const row = page.locator(`[data-testid="account-row"][data-email="${target.email}"]`);
    await expect(row).toHaveAttribute("data-plan", "none");
    const jwksBefore = await (await fetch(`${baseURL}/.well-known/jwks.json`)).json();

    // The admin's page, rendered and working; the session under it swapped for a customer's.
    await boss.ctx.clearCookies();
    await boss.ctx.addCookies(await nobody.ctx.cookies());
    await row.getByLabel("Plan").selectOption("growth");
    await submitAction(page, row.getByRole("button", { name: "Set plan" }));
    await expect(row.getByTestId("plan-form").getByRole("alert")).toContainText("Only admins can change plans");
    await row.getByLabel("Role").selectOption("admin");
    await submitAction(page, row.getByRole("button", { name: "Set role" }));
    await expect(row.getByTestId("role-form").getByRole("alert")).toContainText("Only admins can change roles");
    // Also naming the customer's own account: no self-promotion.
    await forge(row.getByTestId("role-form"), "account_id", nobody.accountId);
    await submitAction(page, row.getByRole("button", { name: "Set role" }), nobody.accountId);
    await expect(row.getByTestId("role-form").getByRole("alert")).toContainText("Only admins can change roles");
    const rotate = page.getByTestId("rotate-form");
    await rotate.getByRole("checkbox").check();
    await submitAction(page, rotate.getByRole("button", { name: "Rotate signing key" }));
    await expect(rotate.getByRole("alert")).toContainText("Only admins can rotate signing keys");

    // Nothing changed: plans, roles, signing keys.
    for (const who of [target, nobody]) {
      expect((await api("GET", "/api/v1/usage", who.key)).body.plan).toBe("none");
      expect((await who.page.goto("/admin"))!.status()).toBe(403);
    }
    expect(await (await fetch(`${baseURL}/.well-known/jwks.json`)).json()).toEqual(jwksBefore);

    // With the admin's session back, the same form does set the plan.
    await boss.ctx.clearCookies();
    await boss.ctx.addCookies(adminSession);
    await page.reload();
    await row.getByLabel("Plan").selectOption("growth");
    await submitAction(page, row.getByRole("button", { name: "Set plan" }));
    await expect(row.getByTestId("plan-form").getByRole("status")).toContainText("growth");
    expect((await api("GET", "/api/v1/usage", target.key)).body.plan).toBe("growth");
  } finally {
    await Promise.all([boss.ctx.close(), nobody.ctx.close(), target.ctx.close()]);
  }
});
