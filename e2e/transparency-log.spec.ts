import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { admin, baseURL, collectBrowserErrors, issue, ownClientAddress, shotBoth } from "./helpers";

/**
 * The certificate's public-log section: a live record shows its latest log entry and the
 * proof that a signed checkpoint includes it — readable at 1280 px and on a 390 px phone,
 * without breaking the page's width — and a sandbox record says it is not logged.
 */
test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

async function liveKey() {
  const a = await admin("account", "create", "--email", `e2e-log-${randomUUID().slice(0, 8)}@example.com`);
  await admin("account", "confirm-email", "--account", String(a.account_id));
  await admin("plan", "set", "--account", String(a.account_id), "--plan", "growth");
  return { live: String((await admin("key", "create", "--account", String(a.account_id), "--env", "live")).key), sandbox: String(a.sandbox_key) };
}

test("a live certificate shows its log entry and inclusion proof; a sandbox one says it is not logged", async ({ page }) => {
  const errors = await collectBrowserErrors(page);
  const keys = await liveKey();
  const id = await issue(keys.live, "Logbook Trading Ltd");
  await expect.poll(async () => (await (await fetch(`${baseURL}/api/v1/records/${id}/status`)).json()).transparency_log !== null, { timeout: 15_000 }).toBe(true);
  await page.goto(`/r/${id}`);
  const section = page.getByTestId("log-proof");
  await expect(section).toContainText("Public log");
  const status = await (await fetch(`${baseURL}/api/v1/records/${id}/status`)).json();
  await expect(section.getByTestId("log-index")).toHaveText(`#${status.transparency_log.index}`);
  await expect(section.getByTestId("log-tree-size")).toHaveText(String(status.transparency_log.tree_size));
  await section.locator("summary").click();
  await expect(section.getByTestId("log-checkpoint")).toContainText(`${new URL(baseURL).host}/log`);
  await section.scrollIntoViewIfNeeded();
  await shotBoth(page, "certificate-log");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `no sideways scroll at ${width} px`).toBeLessThanOrEqual(width);
  }

  const sandboxId = await issue(keys.sandbox, "Logbook Sandbox Ltd");
  await page.goto(`/r/${sandboxId}`);
  await expect(page.getByTestId("log-proof")).toContainText("Sandbox records are not entered in the public transparency log");
  expect(errors).toEqual([]);
});
