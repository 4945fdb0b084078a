import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { randomLei, setLeiRecord } from "../tests/lei-register";
import { admin, hydrated, shotBoth, signedUpPerson as person } from "./helpers";

/** A real one-page PDF (with its cross-reference table) whose page says `text`, as a scanner would make it. */
function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, "")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out);
}

test("organisation verification: the customer applies with a PDF in the portal, a reviewer sees it inline, ticks the checklist and approves", async ({ browser }) => {
  const lei = randomLei();
  setLeiRecord(path.join(process.env.PRS_E2E_DATA_DIR!, "lei-records.json"), lei, {
    legalName: "Lovelace Analytical Engines Ltd", jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE", nextRenewalDate: "2027-07-06T07:17:33Z",
  });
  const pdfPath = test.info().outputPath("letter-of-authority.pdf");
  fs.writeFileSync(pdfPath, onePagePdf("Letter of authority: Ada Lovelace, Director, may act for Lovelace Analytical Engines Ltd."));

  // The customer: from the name form to the organisation page, then the application.
  const customer = await person(browser, "orgcust");
  const cp = customer.page;
  await cp.getByTestId("name-form").getByRole("link", { name: "verify your organisation" }).click();
  await expect(cp).toHaveURL(/\/organisation$/);
  await expect(cp.getByRole("navigation").getByRole("link", { name: "Organisation" })).toBeVisible();
  await expect(cp.getByTestId("org-status")).toHaveAttribute("data-status", "none");
  const form = cp.getByTestId("org-form");
  await form.getByLabel("LEI (optional)").fill(lei);
  await form.getByLabel("Your name").fill("Ada Lovelace");
  await form.getByLabel("Your role").fill("Director");
  await form.getByLabel("Your email").fill("ada@example.com");
  await form.getByLabel(/^Documents/).setInputFiles(pdfPath);
  const apply = form.getByRole("button", { name: "Apply for verification" });
  await hydrated(apply);
  await apply.click();
  // The page renders again with the application waiting (the form gives way to a note).
  await expect(cp.getByTestId("application-status")).toHaveText("pending");
  await cp.reload();
  await expect(cp.getByTestId("application-status")).toHaveText("pending");
  await expect(cp.getByTestId("application")).toContainText("Lovelace Analytical Engines Ltd");
  await expect(cp.getByTestId("application")).toContainText("letter-of-authority.pdf");
  await expect(cp.getByTestId("pending-note")).toBeVisible();
  await shotBoth(cp, "organisation-portal-pending");

  // A namesake: another account a reviewer verified under the same legal name, in another jurisdiction and without an
  // LEI. The reviewer is told before approving (issue 38, "names are not identities").
  const namesake = await admin("account", "create", "--email", `e2e-namesake-${randomUUID().slice(0, 8)}@example.com`);
  await admin("organisation", "verify", "--account", String(namesake.account_id), "--legal-name", "Lovelace Analytical Engines Ltd", "--jurisdiction", "IE");

  // The reviewer: from the console to the application.
  const reviewer = await person(browser, "orgrev");
  await admin("role", "grant", "--account", reviewer.accountId, "--role", "reviewer");
  const rp = reviewer.page;
  await rp.goto("/review");
  await rp.getByTestId("org-queue-link").click();
  await expect(rp).toHaveURL(/\/review\/organisations$/);
  const row = rp.locator('[data-testid="org-queue-row"]', { hasText: customer.email });
  await expect(row).toContainText(lei);
  await row.getByRole("link").first().click();
  await expect(rp).toHaveURL(/\/review\/organisations\/orv_[0-9a-z]{20}$/);
  await expect(rp.getByTestId("register-legal-name")).toHaveText("Lovelace Analytical Engines Ltd");
  await expect(rp.getByTestId("register")).toContainText("ISSUED");
  await expect(rp.getByTestId("register")).toContainText("ACTIVE");
  await expect(rp.getByTestId("lei-holder-warning")).toHaveCount(0);
  await expect(rp.getByTestId("applicant")).toContainText("Ada Lovelace, Director");
  const namesakes = rp.getByTestId("namesakes");
  // On PostgreSQL the vitest suite's organisations share this database (one of them has this name too).
  await expect(namesakes).toContainText(/(another organisation has|other organisations have) this legal name/);
  const ours = namesakes.getByTestId("namesake").filter({ hasText: String(namesake.account_id) });
  await expect(ours).toHaveCount(1);
  await expect(ours).toContainText("IE");
  await shotBoth(rp, "organisation-review-namesake");

  // The PDF is shown inline: a frame whose document is the PDF, served as one.
  const frame = rp.getByTestId("document-frame");
  await expect(frame).toBeVisible();
  const src = (await frame.getAttribute("src"))!;
  const served = await rp.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("application/pdf");
  expect(served.headers()["content-disposition"]).toMatch(/^inline/);
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  expect(served.headers()["content-security-policy"]).toMatch(/^sandbox/);
  expect((await served.body()).subarray(0, 5).toString()).toBe("%PDF-");
  // The frame navigates to the file after it is attached: wait for it rather than read it once.
  await expect.poll(() => rp.frames().some((f) => f.url().endsWith(src)), { message: "the document frame loaded the file" }).toBe(true);
  // The customer is refused the reviewer's copy (only the owner's own route serves it to them).
  expect((await cp.request.get(src)).status()).toBe(404);

  // Checklist and approval.
  const approve = rp.getByTestId("approve-form");
  const button = approve.getByRole("button", { name: "Approve organisation" });
  await hydrated(button);
  for (const box of await approve.locator('input[name="checklist"]').all()) await box.check();
  // A namesake of a verified organisation is a high risk signal: this reviewer's approval is the first of two.
  await expect(rp.getByTestId("risk-panel")).toHaveAttribute("data-level", "high");
  // (Each field carrying the name — the register's legal name, the account's — is a signal of its own.)
  await expect(rp.locator('[data-testid="risk-signal"][data-code="verified_name"]').filter({ hasText: "Lovelace Analytical Engines Ltd" }).first()).toBeVisible();
  await shotBoth(rp, "organisation-review");
  await button.click();
  await expect(rp.getByTestId("decision-done")).toContainText("a second reviewer must approve it too");
  await rp.reload();
  await expect(rp.getByTestId("application-status")).toHaveText("pending");
  await expect(rp.getByTestId("four-eyes")).toContainText("First approval by you");
  // A second reviewer decides.
  const second = await person(browser, "orgrev2");
  await admin("role", "grant", "--account", second.accountId, "--role", "reviewer");
  const sp = second.page;
  await sp.goto(rp.url());
  await expect(sp.getByTestId("four-eyes")).toContainText(reviewer.email);
  const approve2 = sp.getByTestId("approve-form");
  await hydrated(approve2.getByRole("button", { name: "Approve organisation" }));
  for (const box of await approve2.locator('input[name="checklist"]').all()) await box.check();
  await approve2.getByRole("button", { name: "Approve organisation" }).click();
  // The page renders again with the decision (the forms are gone).
  await expect(sp.getByTestId("application-status")).toHaveText("approved");
  await rp.reload();
  await expect(rp.getByTestId("application-status")).toHaveText("approved");
  await expect(rp.getByTestId("decided")).toContainText(second.email);

  // The customer now sees the verified organisation, and the name locked.
  await cp.reload();
  await expect(cp.getByTestId("org-status")).toHaveAttribute("data-status", "verified");
  await expect(cp.getByTestId("org-status")).toContainText("Lovelace Analytical Engines Ltd");
  await shotBoth(cp, "organisation-portal-verified");
  await cp.goto("/developers");
  await expect(cp.getByTestId("name-locked")).toContainText("Lovelace Analytical Engines Ltd");
  await expect(cp.getByTestId("name-form")).toHaveCount(0);
  await customer.ctx.close();
  await reviewer.ctx.close();
  await second.ctx.close();
});
