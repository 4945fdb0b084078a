import { expect, test, type Page } from "@playwright/test";
import { baseURL, collectBrowserErrors, hydrated, ownClientAddress, shot, signIn, signUp } from "./helpers";

// The portal issues records without the API: the "New record" form is generated from the
// claim-type definitions. Each test signs up from a client address of its own.
test.use({ baseURL, extraHTTPHeaders: ownClientAddress });

const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Screenshots at the two widths the portal is checked at; the page is left at 1280 px. */
async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`);
  await expectMainFits(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectMainFits(page);
}

/** Nothing in the page's content sticks out sideways (a wide table scrolls inside its own box). */
async function expectMainFits(page: Page) {
  const { scroll, client, right, width } = await page.locator("main").evaluate((m) => ({
    scroll: m.scrollWidth, client: m.clientWidth, right: m.getBoundingClientRect().right, width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
  expect(right).toBeLessThanOrEqual(width);
}

async function newAccountOn(page: Page, target: string) {
  const email = `e2e-new-${uniq()}@example.com`;
  await signUp(page, email);
  await signIn(page, email, target);
}

const field = (page: Page, name: string) => page.getByTestId(`field-${name}`);
const input = (page: Page, name: string) => page.locator(`[name="${name}"]`);

async function choose(page: Page, kind: RegExp) {
  const radio = page.getByRole("radio", { name: kind });
  await hydrated(radio);
  await radio.check();
}

test("issue a company_status record and a reviewed claim from the browser; the list shows them", async ({ page }) => {
  const errors = await collectBrowserErrors(page);
  await newAccountOn(page, "/records");
  await page.getByTestId("new-record").click();
  await expect(page).toHaveURL(/\/records\/new$/);
  await expect(page.getByTestId("choose-first")).toBeVisible();
  // Domain and wallet proofs need a challenge: the form sends the person to their flow.
  await expect(page.getByTestId("elsewhere").getByRole("link", { name: /Domain ownership/ })).toHaveAttribute("href", "/proofs#domain");
  await expect(page.getByTestId("elsewhere").getByRole("link", { name: /Wallet ownership/ })).toHaveAttribute("href", "/proofs#wallet");
  await shots(page, "record-new-empty");

  // A statement of one's own: issued at once, at the only level it can have.
  await choose(page, /Company status, stated by you/);
  await expect(field(page, "evidence_level")).toContainText("Participant attested");
  await expect(input(page, "evidence_level")).toHaveCount(1);
  await expect(page.getByTestId("live-reason")).toContainText("confirmed email");
  await input(page, "subject").fill("Acme Trading Ltd");
  await input(page, "claim").fill("Acme Trading Ltd is an active company.");
  await page.getByRole("radio", { name: /^Public/ }).check();
  await shots(page, "record-new-company-status");
  await page.getByTestId("create-record").click();
  await expect(page).toHaveURL(/\/records\/PRS-[0-9A-Z]{20}$/);
  await expect(page.getByTestId("record-status")).toHaveText("Active");
  const statusId = (await page.getByTestId("record-id").innerText()).trim();
  await expect(page.getByTestId("record-kind")).toContainText("Company status, stated by you");
  await expect(page.getByTestId("record-level")).toHaveText("Participant attested");

  // Another claim, checked by a reviewer: refused without its source, with nothing lost.
  await page.goto("/records/new");
  await choose(page, /Another claim, checked by a reviewer/);
  await input(page, "claim_type").fill("press_coverage");
  await input(page, "subject").fill("Acme Trading Ltd");
  await input(page, "claim").fill("Acme Trading Ltd was featured in the Financial Times.");
  await input(page, "source_url").fill("https://www.ft.com/content/acme-trading");
  await page.getByTestId("create-record").click();
  await expect(field(page, "source_name").getByTestId("field-error")).toHaveText("This field is required for a claim type checked by a reviewer.");
  await expect(input(page, "source_name")).toHaveAttribute("aria-invalid", "true");
  await expect(input(page, "source_name")).toBeFocused();
  await expect(input(page, "claim_type")).toHaveValue("press_coverage");
  await expect(input(page, "subject")).toHaveValue("Acme Trading Ltd");
  await expect(input(page, "claim")).toHaveValue("Acme Trading Ltd was featured in the Financial Times.");
  await expect(input(page, "source_url")).toHaveValue("https://www.ft.com/content/acme-trading");
  await expect(page.getByRole("radio", { name: /Another claim, checked by a reviewer/ })).toBeChecked();
  await shots(page, "record-new-error");

  await input(page, "source_name").fill("Financial Times");
  await page.getByTestId("create-record").click();
  await expect(page).toHaveURL(/\/records\/PRS-[0-9A-Z]{20}$/);
  await expect(page.getByTestId("record-status")).toHaveText("Pending review");
  await expect(page.getByTestId("review-outcome")).toContainText("reviewer");
  const reviewedId = (await page.getByTestId("record-id").innerText()).trim();

  // The list: claim, visibility and evidence level columns, inside its box at both widths.
  await page.goto("/records");
  const rows = page.getByTestId("record-row");
  await expect(rows).toHaveCount(2);
  const reviewed = page.locator(`[data-testid="record-row"][data-id="${reviewedId}"]`);
  await expect(reviewed.getByTestId("record-claim")).toContainText("press_coverage");
  await expect(reviewed.getByTestId("record-claim")).toContainText("featured in the Financial Times");
  await expect(reviewed.getByTestId("record-visibility")).toHaveText("private");
  const stated = page.locator(`[data-testid="record-row"][data-id="${statusId}"]`);
  await expect(stated.getByTestId("record-level")).toHaveText("Participant attested");
  await expect(stated.getByTestId("record-visibility")).toHaveText("private"); // asked public, but sandbox records are always private
  await shots(page, "records-list");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const [box, main] = await Promise.all([page.getByTestId("records-box").boundingBox(), page.locator("main").boundingBox()]);
    expect(box!.x + box!.width).toBeLessThanOrEqual(main!.x + main!.width);
  }
  expect(errors).toEqual([]);
});

test("a refused submission shows the error beside its field and keeps what was typed", async ({ page }) => {
  await newAccountOn(page, "/records/new");
  await choose(page, /Company identity/);
  await input(page, "subject").fill("Acme Widgets Limited");
  await input(page, "claim").fill("Acme Widgets Limited holds an active LEI.");
  await input(page, "evidence.lei").fill("NOT-AN-LEI-12345");
  await page.getByTestId("create-record").click();
  const lei = field(page, "evidence.lei");
  await expect(lei.getByTestId("field-error")).toContainText("is not an LEI");
  await expect(input(page, "evidence.lei")).toHaveValue("NOT-AN-LEI-12345");
  await expect(input(page, "subject")).toHaveValue("Acme Widgets Limited");
  await expect(input(page, "claim")).toHaveValue("Acme Widgets Limited holds an active LEI.");
  await expect(page.getByTestId("field-error")).toHaveCount(1);

  // A listing with no payee: the payee's section is named, beside its first field, in words.
  await choose(page, /A listing, its operator and its payee/);
  await input(page, "subject").fill("Seaview Apartments");
  await input(page, "claim").fill("Seaview Apartments runs listing 4471.");
  await input(page, "evidence.operator").fill("Seaview Apartments Ltd");
  await input(page, "evidence.listing_url").fill("https://www.seaview.example.com/listing/4471");
  await input(page, "evidence.domain").fill("seaview.example.com");
  await page.getByTestId("create-record").click();
  await expect(field(page, "evidence.payee.type").getByTestId("field-error")).toHaveText("This field is required.");
  await expect(input(page, "evidence.payee.type")).toBeFocused();
  await expect(input(page, "evidence.operator")).toHaveValue("Seaview Apartments Ltd");
  await expect(page.locator("main")).not.toContainText("must be of type");
  await shots(page, "record-new-listing-error");

  // A claim type that is not snake_case is refused beside the claim type field.
  await choose(page, /Another claim, checked by a reviewer/);
  await input(page, "claim_type").fill("Press Coverage");
  await input(page, "subject").fill("Acme Trading Ltd");
  await input(page, "claim").fill("Acme Trading Ltd was featured in the Financial Times.");
  await input(page, "source_name").fill("Financial Times");
  await input(page, "source_url").fill("https://www.ft.com/content/acme-trading");
  await page.getByTestId("create-record").click();
  await expect(field(page, "claim_type").getByTestId("field-error")).toContainText("must be a short name: a lower-case letter");
  await expect(field(page, "claim_type").getByTestId("field-error")).not.toContainText("snake_case");
  await expect(input(page, "claim_type")).toHaveValue("Press Coverage");
  await expect(input(page, "source_name")).toHaveValue("Financial Times");

  // A type that has a form of its own is not taken as a reviewed one.
  await input(page, "claim_type").fill("company_status");
  await page.getByTestId("create-record").click();
  await expect(field(page, "claim_type").getByTestId("field-error")).toContainText("choose “Company status, stated by you” above");
  await page.goto("/records");
  await expect(page.getByTestId("no-records")).toBeVisible();
});

test("a double submit creates one record", async ({ page }) => {
  await newAccountOn(page, "/records/new");
  await choose(page, /Company status, stated by you/);
  await input(page, "subject").fill("Double Click Ltd");
  await input(page, "claim").fill("Double Click Ltd is an active company.");
  const button = page.getByTestId("create-record");
  await hydrated(button);
  await button.dblclick();
  await expect(page).toHaveURL(/\/records\/PRS-[0-9A-Z]{20}$/);
  const first = (await page.getByTestId("record-id").innerText()).trim();

  // A retry of the very same post (a lost answer, a second tab): the server replays the record, it makes no other.
  await page.goto("/records/new");
  await choose(page, /Company status, stated by you/);
  await input(page, "subject").fill("Twice Posted Ltd");
  await input(page, "claim").fill("Twice Posted Ltd is an active company.");
  const [post] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined),
    page.getByTestId("create-record").click(),
  ]);
  await expect(page).toHaveURL(/\/records\/PRS-[0-9A-Z]{20}$/);
  const second = (await page.getByTestId("record-id").innerText()).trim();
  expect(second).not.toBe(first);
  const headers = await post.allHeaders();
  const again = await page.request.post(post.url(), {
    headers: Object.fromEntries(Object.entries(headers).filter(([k]) => !k.startsWith(":") && k !== "cookie" && k !== "content-length")),
    data: post.postDataBuffer()!,
    maxRedirects: 0,
  });
  expect(again.headers()["x-action-redirect"] ?? "").toContain(`/records/${second}`);

  await page.goto("/records");
  await expect(page.getByTestId("record-row")).toHaveCount(2);
  await expect(page.getByTestId("record-subject").filter({ hasText: "Double Click Ltd" })).toHaveCount(1);
  await expect(page.getByTestId("record-subject").filter({ hasText: "Twice Posted Ltd" })).toHaveCount(1);
});
