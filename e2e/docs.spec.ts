import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { admin, baseURL, collectBrowserErrors, issue, screenshotsWanted } from "./helpers";

/**
 * The public face (issue 12, items 4 and 5): the home page for each kind of visitor with
 * links that all answer, "check a record" with and without JavaScript, /docs rendering the
 * live OpenAPI document with Scalar under the strict CSP, a guide from docs/, the icons.
 */

test.use({ baseURL });

const shots = path.join(import.meta.dirname, "screenshots");
/**
 * Resize the viewport and wait until the page has laid itself out at the new width: the window
 * reports it, and two frames have been drawn since (the resize handlers ran, then a layout).
 */
async function resizeTo(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.waitForFunction((w) => window.innerWidth === w, size.width);
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** Full-page screenshots at desktop and phone width (the viewport is put back after). */
async function shotBoth(page: Page, name: string) {
  if (!screenshotsWanted) return; // SCREENSHOTS=1 takes them (e2e/helpers.ts)
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await resizeTo(page, { width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: path.join(shots, `docs-${name}-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/**
 * The browser errors of a page showing the API reference, less the one Scalar causes on
 * purpose: zod (inside the bundle) probes once whether `Function("")` is allowed, to pick
 * its faster validator, and falls back when the policy says no. Eval stays refused.
 */
const withoutZodProbe = (errors: string[]) => {
  const probe = errors.findIndex((e) => /^csp violation: script-src blocked eval on .*\/docs$/.test(e));
  return probe < 0 ? errors : errors.filter((_, i) => i !== probe);
};

/** Nothing on the page is wider than the phone's screen. */
async function fitsPhone(page: Page) {
  await resizeTo(page, { width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test("home page: three audiences, every link answers, no CSP violation", async ({ page }) => {
  const errors = await collectBrowserErrors(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed records that anyone can check.");
  for (const [id, title] of [["customers", "Companies and developers"], ["reviewers", "Reviewers"], ["checkers", "Anyone checking a listing or a payee"]]) {
    await expect(page.getByTestId(`audience-${id}`).getByRole("heading", { name: title })).toBeVisible();
  }
  for (const name of ["Sign up", "Sign in", "Docs"]) await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name })).toBeVisible();
  await expect(page.getByRole("link", { name: "Developer portal" })).toHaveCount(1); // security-headers.spec.ts clicks it

  const hrefs = [...new Set(await page.locator("a[href]").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href)))];
  const targets = hrefs.filter((h) => !h.startsWith(`${baseURL}/#`));
  expect(targets.length).toBeGreaterThan(8);
  for (const href of targets) {
    expect(href.startsWith(baseURL), href).toBe(true);
    const res = await page.request.get(href);
    expect(res.status(), href).toBe(200);
    const hash = new URL(href).hash.slice(1);
    if (hash) expect(await res.text(), `${href}: no element with that id`).toContain(`id="${hash}"`);
  }
  await fitsPhone(page);
  await shotBoth(page, "home");
  expect(errors).toEqual([]);
});

test("check a record: an id in any form opens its certificate; a bad one is refused beside the field", async ({ page, browser }) => {
  const { sandbox_key } = (await admin("account", "create", "--email", `e2e-home-${Date.now()}@example.com`)) as { sandbox_key: string };
  const id = await issue(sandbox_key, "Homepage Check Ltd");

  await page.goto("/");
  const field = page.getByRole("textbox", { name: "A company name or LEI, record id, IBAN, wallet, website or listing link" });
  await field.fill(` ${id.toLowerCase()} `);
  await page.getByRole("button", { name: "Look it up" }).click();
  await expect(page).toHaveURL(new RegExp(`/r/${id}$`));
  await expect(page.getByText("Homepage Check Ltd").first()).toBeVisible();

  await page.goto("/");
  await field.fill("PRS-nope");
  await page.getByRole("button", { name: "Look it up" }).click();
  await expect(page).toHaveURL(/\/\?q=PRS-nope$/);
  await expect(page.locator("#q-error")).toContainText("That is not a record id");
  await expect(field).toHaveValue("PRS-nope");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  // A link from before the box took more than ids (`?record=`) still works.
  await page.goto(`/?record=${id}`);
  await expect(page).toHaveURL(new RegExp(`/r/${id}$`));

  // Without JavaScript: the form is a plain GET, the page redirects on the server.
  const noJs = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const p = await noJs.newPage();
  await p.goto("/");
  await p.getByRole("textbox", { name: "A company name or LEI, record id, IBAN, wallet, website or listing link" }).fill(`${baseURL}/r/${id}`);
  await p.getByRole("button", { name: "Look it up" }).click();
  await expect(p).toHaveURL(new RegExp(`/r/${id}$`));
  await noJs.close();
});

test("/docs renders the live OpenAPI document with Scalar, served by the app, under the CSP", async ({ page }) => {
  // Two full-page screenshots of the whole API reference (50 operations) take most of a minute
  // on a busy 2-core machine; the clean-clone run of 2026-11-26 18:1x timed out at 60 s.
  test.setTimeout(180_000);
  const errors = await collectBrowserErrors(page);
  const external: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(baseURL) && !r.url().startsWith("data:")) external.push(r.url());
  });
  const res = await page.goto("/docs");
  expect(res!.status()).toBe(200);
  // Scripts under the nonce as everywhere; inline styles allowed on this page only (Scalar's theme).
  expect(res!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'; style-src 'self' 'unsafe-inline';/);
  const reference = page.getByTestId("api-reference");
  await expect(reference.getByText("createRecord").first()).toBeVisible({ timeout: 30_000 });
  await expect(reference.getByText("/api/v1/records").first()).toBeVisible();
  await expect(page.getByTestId("api-reference-fallback")).toHaveCount(0);
  const docsNav = page.getByRole("navigation", { name: "Documentation" });
  await expect(docsNav.getByRole("link", { name: "API reference" })).toHaveAttribute("aria-current", "page");
  await expect(docsNav.locator('[aria-current="page"]')).toHaveCount(1);

  // The bundle comes from this app, versioned and cached for a year.
  const src = await page.evaluate(() => [...document.scripts].map((s) => s.src).find((s) => s.includes("/docs/api-reference.js")));
  expect(src).toMatch(/\/docs\/api-reference\.js\?v=\d+\.\d+\.\d+$/);
  const js = await page.request.get(src!);
  expect(js.status()).toBe(200);
  expect(js.headers()["content-type"]).toMatch(/^text\/javascript/);
  expect(js.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

  await fitsPhone(page);
  await shotBoth(page, "api-reference");
  expect(external).toEqual([]);
  expect(withoutZodProbe(errors)).toEqual([]);
});

test("/docs is interactive: an operation's request console calls this server", async ({ page }) => {
  const errors = await collectBrowserErrors(page);
  await page.goto("/docs#tag/meta/GET/api/health");
  const operation = page.locator('section[id$="/tag/meta/GET/api/health"]');
  await expect(operation.getByText("getHealth", { exact: true })).toBeVisible({ timeout: 30_000 });
  await operation.getByRole("button", { name: /Test Request/ }).click();
  const [sent] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${baseURL}/api/health`),
    page.getByRole("button", { name: /^Send/ }).first().click(),
  ]);
  expect(sent.status()).toBe(200);
  await expect(page.getByText("200 OK").first()).toBeVisible();
  expect(withoutZodProbe(errors)).toEqual([]);
});

test("/docs reached by a client-side navigation reloads under its own policy and renders", async ({ page }) => {
  const errors = await collectBrowserErrors(page);
  await page.goto("/docs/guides/getting-started"); // a page with the strict style policy
  await page.waitForFunction(() => (window as unknown as { next?: { router?: unknown } }).next?.router !== undefined);
  // As a <Link href="/docs"> elsewhere would: the document keeps the guide's policy.
  await page.evaluate(() => (window as unknown as { next: { router: { push: (h: string) => void } } }).next.router.push("/docs"));
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByTestId("api-reference").getByText("createRecord").first()).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => new URL(performance.getEntriesByType("navigation")[0]!.name).pathname)).toBe("/docs");
  // And on to a guide with the docs menu (a client-side navigation): it renders with its own styles.
  await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Security" }).click();
  await expect(page.getByTestId("guide").getByRole("heading", { level: 1 })).toHaveText("Security");
  expect(withoutZodProbe(errors)).toEqual([]);
});

test("a guide from docs/ renders as a page, its raw HTML shown as text", async ({ page }) => {
  // Four guides, each rendered and measured at two widths; the API reference alone is a page
  // of ~3,500 lines (70 examples): 53 s on a quiet 2-core machine, over the default 60 s in CI.
  test.setTimeout(180_000);
  const errors = await collectBrowserErrors(page);
  await page.goto("/docs/guides/api");
  const guide = page.getByTestId("guide");
  await expect(guide.getByRole("heading", { level: 1 })).toHaveText("Proof Record Service API reference (v1)");
  await expect(guide.getByRole("heading", { level: 2, name: "5. Idempotency" })).toBeVisible();
  await expect(guide).not.toContainText("GENERATED FILE"); // the HTML comment at the top is dropped
  // The file's own table of contents links to its headings.
  await guide.getByRole("link", { name: "Idempotency" }).first().click();
  await expect(page).toHaveURL(/#5-idempotency$/);
  await fitsPhone(page);

  await page.goto("/docs/guides/getting-started");
  await expect(page.getByTestId("guide").getByRole("heading", { level: 2, name: "Quick start" })).toBeVisible();
  await shotBoth(page, "guide");
  // The badge's guide shows its snippet as code, not as a live element.
  await page.goto("/docs/guides/embed");
  await expect(page.getByTestId("guide").locator("code").first()).toContainText('<div data-prs-record="PRS-…"></div>');
  expect(await page.locator("[data-prs-record]").count()).toBe(0);
  await fitsPhone(page);
  await shotBoth(page, "guide-embed");
  await page.goto("/docs/guides/operations");
  await expect(page.getByTestId("guide").getByRole("heading", { level: 2, name: "Topologies" })).toBeVisible();
  await fitsPhone(page);
  await shotBoth(page, "guide-operations");
  expect(errors).toEqual([]);

  expect((await page.request.get("/docs/guides/no-such-guide")).status()).toBe(404);
  expect((await page.request.get("/docs/guides/..%2Fpackage.json")).status()).toBe(404);
  expect((await page.request.get("/docs/guides")).status()).toBe(200);
});

test("favicon, app icons and the web manifest", async ({ request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  for (const [p, type] of [["/icon.svg", /^image\/svg\+xml/], ["/apple-icon.png", /^image\/png/], ["/icon-192.png", /^image\/png/], ["/icon-512.png", /^image\/png/]] as const) {
    const r = await request.get(p);
    expect(r.status(), p).toBe(200);
    expect(r.headers()["content-type"], p).toMatch(type);
  }
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  expect(await manifest.json()).toMatchObject({ name: "Proof Records", icons: expect.arrayContaining([expect.objectContaining({ src: "/icon-512.png" })]) });
  // The pages point the browser at them.
  const html = await (await request.get("/docs")).text();
  expect(html).toMatch(/<link rel="icon" href="\/favicon\.ico/);
  expect(html).toMatch(/<link rel="apple-touch-icon" href="\/apple-icon\.png/);
  expect(html).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/);
});
