import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, expect, test, type Browser } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_FULL } from "./playwright.config";
import { admin, baseURL, callApi, collectBrowserErrors, decodeQp, mailDir, newClientContext, setDns, shotBoth, signIn, signUp } from "./helpers";

/**
 * Badge sightings (issue 31) in Chromium: a page on a host the record does not cover
 * (`imposter.test`, resolved to a local HTTP server on 127.0.0.1) embeds a live domain record's
 * badge. Two visitors load it: one sighting row with count 2 and exactly one
 * `badge.seen_elsewhere` event. A visitor who follows the badge's link lands on the
 * certificate with the notice naming imposter.test and the domain the record covers; the owner
 * sees the host highlighted on /watches/badges.
 */

// The full browser: the headless shell ignores --unsafely-treat-insecure-origin-as-secure, and the
// page on the mapped host must be a secure context for the badge's WebCrypto (scripts/chromium.mjs).
const chromiumArgs = CHROMIUM_ARGS;
const executablePath = CHROMIUM_FULL;
const IMPOSTER = "imposter.test";

/** The mails the SMTP capture received for `to`, decoded. */
const mailsTo = (to: string) => (fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : [])
  .map((f) => fs.readFileSync(`${mailDir}/${f}`, "utf8"))
  .filter((raw) => raw.startsWith(`X-Envelope-To: ${to}\r\n`))
  .map(decodeQp);

test("a badge shown on an uncovered host: one sighting counted twice, one event, the certificate warns, the portal lists it", async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = await newClientContext(browser);
  const p = await owner.newPage();
  const email = `e2e-sightings-${randomUUID().slice(0, 8)}@example.com`;
  const sandboxKey = await signUp(p, email);
  const accountId = String((await callApi("GET", "/api/v1/account", sandboxKey)).body.id);
  await admin("account", "confirm-email", "--account", accountId);
  await admin("plan", "set", "--account", accountId, "--plan", "growth");
  const key = String((await admin("key", "create", "--account", accountId, "--env", "live")).key);
  expect((await callApi("PATCH", "/api/v1/account", key, { name: "Seaview Apartments Ltd" })).status).toBe(200);
  const domain = `seaview-${randomUUID().slice(0, 8)}.example.com`;
  const c = (await callApi("POST", "/api/v1/domain-challenges", key, { domain })).body;
  setDns(c.txt_name, [c.txt_value]);
  const made = await callApi("POST", "/api/v1/records", key, {
    subject: domain, claim_type: "domain_ownership", claim: `Seaview Apartments controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.id },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = String(made.body.verification_id);

  // The imposter's page: the real snippet, copied.
  const site = http.createServer((req, res) => {
    if (req.url !== "/pay.html") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay Seaview</title>
<script src="${baseURL}/embed.js" async></script></head>
<body><h1>Seaview Apartments — pay your deposit</h1><div id="badge" data-prs-record="${id}"></div></body></html>`);
  });
  const port = await new Promise<number>((resolve) => site.listen(0, "127.0.0.1", () => resolve((site.address() as AddressInfo).port)));
  const pageUrl = `http://${IMPOSTER}:${port}/pay.html`;
  const b: Browser = await chromium.launch({
    executablePath,
    args: [...chromiumArgs, `--host-resolver-rules=MAP ${IMPOSTER} 127.0.0.1`, `--unsafely-treat-insecure-origin-as-secure=http://${IMPOSTER}:${port}`],
  });
  try {
    // Two visitors (two browser profiles: each fetches the status itself).
    for (let i = 0; i < 2; i++) {
      const ctx = await b.newContext();
      const v = await ctx.newPage();
      await v.goto(pageUrl);
      await expect(v.locator("#badge .badge")).toHaveAttribute("data-state", "wrong_site");
      await ctx.close();
    }
    await expect.poll(async () => {
      const r = await callApi("GET", `/api/v1/badge-sightings?record_id=${id}`, key);
      return r.body.data?.map((s: any) => [s.host, s.count, s.covered]);
    }, { timeout: 20_000 }).toEqual([[IMPOSTER, 2, false]]);
    const events = await callApi("GET", `/api/v1/events?type=badge.seen_elsewhere&record_id=${id}`, key);
    expect(events.status).toBe(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].data).toMatchObject({ host: IMPOSTER, covers: [domain, `www.${domain}`], record: { verification_id: id } }); // exact hosts
    // A live record's owner is also mailed, with the certificate's address.
    await expect.poll(() => mailsTo(email).filter((m) => m.includes(`${baseURL}/r/${id}`) && m.includes(`loaded on a page at ${IMPOSTER}`)).length, { timeout: 15_000 }).toBe(1);

    // A third visitor follows the badge to the certificate: warned, with the domain it is about.
    const ctx = await b.newContext();
    const v = await ctx.newPage();
    await v.goto(pageUrl);
    const errors = await collectBrowserErrors(v);
    const [cert] = await Promise.all([ctx.waitForEvent("page"), v.locator("#badge .badge").click()]);
    await cert.waitForLoadState();
    expect(cert.url()).toBe(`${baseURL}/r/${id}`);
    const notice = cert.getByTestId("arrived-from");
    await expect(notice).toBeVisible();
    await expect(cert.getByTestId("arrived-host")).toHaveText(IMPOSTER);
    await expect(cert.getByTestId("arrived-covers")).toContainText(domain);
    // Near the top: above the verdict.
    const [nTop, vTop] = await Promise.all([notice.boundingBox(), cert.getByTestId("verdict").boundingBox()]);
    expect(nTop!.y).toBeLessThan(vTop!.y);
    await shotBoth(cert, "certificate-arrived-from-imposter");
    expect(errors.filter((e) => !e.includes("favicon.ico"))).toEqual([]);
    await ctx.close();
  } finally {
    await b.close();
    site.close();
  }

  // The same certificate opened directly: no notice.
  const direct = await owner.newPage();
  await direct.goto(`/r/${id}`);
  await expect(direct.getByTestId("verdict")).toBeVisible();
  await expect(direct.getByTestId("arrived-from")).toHaveCount(0);

  // The owner's list.
  await signIn(p, email, "/watches/badges");
  const item = p.getByTestId("sighting");
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute("data-covered", "no");
  await expect(item.getByTestId("sighting-host")).toHaveText(IMPOSTER);
  await expect(item.getByTestId("sighting-count")).toHaveText("3"); // the two visitors and the one who followed the link
  await expect(item.getByRole("link", { name: id })).toHaveAttribute("href", `/records/${id}`);
  await shotBoth(p, "portal-badge-sightings");
  await owner.close();
});
