import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, expect, test, type Browser, type Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { CHROMIUM_ARGS, CHROMIUM_FULL } from "./playwright.config";
import { admin, baseURL, collectBrowserErrors, newClientContext, setDns, screenshotsWanted, shotBoth, signIn, signUp, liveCustomerAccount } from "./helpers";

/**
 * The embed badge in Chromium, on a customer's page served from another loopback origin under
 * a strict CSP (scripts and fetches only from the badge's origin, no inline anything, Trusted
 * Types), with a hostile stylesheet. The script is loaded through a test proxy in front of the
 * service, which flips one character of one record's status answer, names an unpublished key
 * in another's, and drops the connection for a third. Each badge must say what it should; only
 * a verified record shown on a site it covers is green.
 */

// The full browser: the headless shell ignores --unsafely-treat-insecure-origin-as-secure, and the
// page on the mapped host must be a secure context for the badge's WebCrypto (scripts/chromium.mjs).
const chromiumArgs = CHROMIUM_ARGS;
const executablePath = CHROMIUM_FULL;

const NETWORK_FAILURE = "PRS-NETWORKFAILURE000000".slice(0, 24);
const NOT_ISSUED = "PRS-00000000000000000000";

async function api(method: string, p: string, key: string, body?: unknown) {
  const r = await fetch(`${baseURL}${p}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
}
async function record(key: string, body: Record<string, unknown>) {
  const r = await api("POST", "/api/v1/records", key, { visibility: "public", ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.verification_id as string;
}
async function wallet(key: string) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const c = (await api("POST", "/api/v1/wallet-challenges", key, { address: acct.address, network: "ethereum" })).body;
  const signature = await acct.signMessage({ message: c.message });
  const id = await record(key, { subject: acct.address, claim_type: "wallet_ownership", claim: "Controls the wallet.", evidence: { challenge_id: c.id, signature } });
  return { id, address: acct.address };
}

const listen = (server: http.Server) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));

/** The service behind a proxy that tampers with the answers named, and records any cookie set. */
function tamperingProxy(tamper: Map<string, (body: string) => string>, setCookies: string[]) {
  return http.createServer(async (req, res) => {
    const id = /^\/api\/v1\/records\/([^/]+)\/status$/.exec(req.url ?? "")?.[1];
    if (id === NETWORK_FAILURE) return void req.socket.destroy();
    const upstream = await fetch(`${baseURL}${req.url}`, { method: req.method, headers: { accept: String(req.headers.accept ?? "*/*"), "accept-encoding": "identity" } });
    let body = Buffer.from(await upstream.arrayBuffer());
    const change = id ? tamper.get(id) : undefined;
    if (change) body = Buffer.from(change(body.toString("utf8")));
    const headers: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (k === "set-cookie") setCookies.push(v);
      if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k)) headers[k] = v;
    });
    res.writeHead(upstream.status, { ...headers, "content-length": String(body.length) });
    res.end(body);
  });
}

/** A customer's site: pages with a strict CSP that allows only the badge's origin, and a stylesheet that tries to fake it. */
function customerSite(pages: Record<string, string>, badgeOrigin: string) {
  const csp = [
    "default-src 'none'", `script-src ${badgeOrigin}`, `connect-src ${badgeOrigin}`, "style-src 'self'", "img-src 'self'",
    "base-uri 'none'", "form-action 'none'", "require-trusted-types-for 'script'", "trusted-types 'none'",
  ].join("; ");
  return http.createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname;
    if (p === "/hostile.css") {
      res.writeHead(200, { "content-type": "text/css" });
      // A page may restyle the element it gave the badge: hide, fade, recolour it.
      return void res.end("[data-prs-record]{opacity:.15!important;filter:hue-rotate(180deg)!important;display:none!important}.badge,.title{color:green!important}");
    }
    const html = pages[p];
    if (!html) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp });
    res.end(html);
  });
}

const page = (title: string, badgeScript: string, badges: [string, string, string][]) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="/hostile.css">
<script src="${badgeScript}" async></script></head>
<body><h1>${title}</h1>
${badges.map(([id, label, rec]) => `<p>${label}</p>\n<div id="${id}" data-prs-record="${rec}"></div>`).join("\n")}
<div id="later"></div>
</body></html>`;

const state = (p: Page, id: string) => p.locator(`#${id} .badge`);

/** The full browser with `domain` resolved to loopback and its page at `origin` a secure context (the badge's WebCrypto). */
const browserOnHost = (domain: string, origin: string): Promise<Browser> =>
  chromium.launch({ executablePath, args: [...chromiumArgs, `--host-resolver-rules=MAP ${domain} 127.0.0.1`, `--unsafely-treat-insecure-origin-as-secure=${origin}`] });

async function expectBadges(p: Page, expected: Record<string, string>) {
  for (const [id, s] of Object.entries(expected)) await expect(state(p, id), id).toHaveAttribute("data-state", s);
}

test("the badge verifies the signed status in the browser and is green only where it may be", async ({ browser }) => {
  test.setTimeout(180_000);
  const a = await liveCustomerAccount("embed");
  const key = a.liveKey;
  expect((await api("PATCH", "/api/v1/account", key, { name: "Seaview Apartments Ltd" })).status).toBe(200);

  const active = await wallet(key);
  const revoked = await wallet(key);
  expect((await api("POST", `/api/v1/records/${revoked.id}/lifecycle`, key, { operation: "revoke", reason: "Wallet retired." })).status).toBe(200);
  const sandbox = await record(a.sandboxKey, { subject: "Seaview Apartments", claim_type: "company_status", claim: "Seaview Apartments is active." });
  const domain = `seaview-${randomUUID().slice(0, 8)}.example.com`;
  const c = (await api("POST", "/api/v1/domain-challenges", key, { domain })).body;
  setDns(c.txt_name, [c.txt_value]);
  const domainRecord = await record(key, { subject: domain, claim_type: "domain_ownership", claim: `Seaview controls ${domain}.`, evidence: { challenge_id: c.id } });
  // A reviewer verified the organisation and confirmed the domain is its own.
  await admin("organisation", "verify", "--account", a.accountId, "--legal-name", "Seaview Apartments Ltd", "--domains", domain);
  const listing = await record(key, {
    subject: "Seaview Apartments", claim_type: "verified_listing", claim: "Seaview Apartments runs listing 4471.",
    evidence: {
      operator: "Seaview Apartments Ltd", listing_url: `https://${domain}/listing/4471`, domain,
      payee: { type: "wallet", value: active.address, network: "ethereum" }, domain_record: domainRecord, payee_record: active.id,
    },
  });
  const tampered = await wallet(key);
  const unknownKey = await wallet(key);

  const setCookies: string[] = [];
  const tamper = new Map<string, (b: string) => string>([
    // One character of the subject: the answer still parses, but no longer matches its signature.
    [tampered.id, (b) => b.replace(/("subject":"0x)(.)/, (_m, pre: string, ch: string) => pre + (ch === "a" ? "b" : "a"))],
    [unknownKey.id, (b) => b.replace(/"signing_key_id":"[^"]+"/, '"signing_key_id":"prs-19990101-00000000"')],
  ]);
  const proxy = tamperingProxy(tamper, setCookies);
  const proxyOrigin = `http://127.0.0.1:${await listen(proxy)}`;
  const badges: [string, string, string][] = [
    ["b-active", "Our payout wallet", active.id],
    ["b-revoked", "Our old wallet", revoked.id],
    ["b-sandbox", "A sandbox record", sandbox],
    ["b-listing", "Our listing (its website is elsewhere)", listing],
    ["b-tampered", "An answer altered in flight", tampered.id],
    ["b-unknown-key", "Signed with a key not published", unknownKey.id],
    ["b-network", "The status cannot be fetched", NETWORK_FAILURE],
    ["b-missing", "No such record", NOT_ISSUED],
  ];
  const site = customerSite({
    "/shop.html": page("Seaview shop", `${proxyOrigin}/embed.js`, badges),
    "/listing.html": page("Seaview Apartments — book direct", `${proxyOrigin}/embed.js`, [["b-listing", "This listing", listing], ["b-wallet-home", "Our payout wallet", active.id]]),
  }, proxyOrigin);
  const sitePort = await listen(site);
  const expected = {
    "b-active": "about", "b-revoked": "inactive", "b-sandbox": "sandbox", "b-listing": "wrong_site",
    "b-tampered": "unverified", "b-unknown-key": "unverified", "b-network": "unverified", "b-missing": "not_found",
  };

  try {
    // The browser's own Ed25519 (WebCrypto) on a loopback page (a secure context).
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await p.setViewportSize({ width: 1280, height: 900 });
    const errors = await collectBrowserErrors(p);
    await p.goto(`http://127.0.0.1:${sitePort}/shop.html`);
    await expectBadges(p, expected);
    // A wallet record names no website: on a page that is not its organisation's, it is neutral, never green.
    await expect(state(p, "b-active")).toContainText(`Record about ${active.address}, not about this site`);
    await expect(state(p, "b-active")).toContainText("statement by Seaview Apartments Ltd");
    await expect(state(p, "b-active")).toContainText(/as of /);
    await expect(state(p, "b-active")).toHaveAttribute("href", `${baseURL}/r/${active.id}`);
    await expect(state(p, "b-revoked")).toContainText("Revoked — do not rely on this");
    // "No such record" links to a page that exists and says the claim is unverified (a certificate address would be a 404).
    // (on the origin the script was loaded from: here the test proxy in front of the service)
    await expect(state(p, "b-missing")).toHaveAttribute("href", `${proxyOrigin}/no-such-record?id=${NOT_ISSUED}`);
    await expect(state(p, "b-missing")).toContainText("What this means");
    const explained = await p.request.get(`${baseURL}/no-such-record?id=${NOT_ISSUED}`);
    expect(explained.status()).toBe(200);
    expect(await explained.text()).toContain("Treat the claim as unverified");
    await expect(state(p, "b-sandbox")).toContainText("Sandbox — not verified");
    await expect(state(p, "b-listing")).toContainText("Shown on a site this record does not cover");
    await expect(state(p, "b-listing")).toContainText(`This record covers ${domain}, not 127.0.0.1`);
    for (const id of ["b-tampered", "b-unknown-key", "b-network"]) await expect(state(p, id)).toContainText("Could not verify");
    await expect(state(p, "b-tampered")).toContainText("signature does not check out");
    await expect(state(p, "b-unknown-key")).toContainText("key Proof Records does not publish");

    // No badge is green on a page none of the records covers; the page's stylesheet reached neither the element nor the badge.
    const look = (id: string) => p.evaluate((sel) => {
      const host = document.querySelector(sel)!;
      const badge = host.shadowRoot!.querySelector(".badge")!;
      const h = getComputedStyle(host);
      return { display: h.display, opacity: h.opacity, filter: h.filter, border: getComputedStyle(badge).borderLeftColor, title: getComputedStyle(badge.querySelector(".title")!).color };
    }, `#${id}`);
    const green = "rgb(21, 128, 61)";
    expect(await look("b-active")).toMatchObject({ display: "inline-block", opacity: "1", filter: "none" });
    for (const id of Object.keys(expected)) expect((await look(id)).border, id).not.toBe(green);

    // A badge added later is filled too; the script wrote nothing outside its elements.
    await p.evaluate((id) => {
      const d = document.createElement("div");
      d.id = "b-later";
      d.setAttribute("data-prs-record", id);
      document.getElementById("later")!.append(d);
    }, active.id);
    await expect(state(p, "b-later")).toHaveAttribute("data-state", "about");
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const bare = await noScript.newPage();
    await bare.goto(`http://127.0.0.1:${sitePort}/shop.html`);
    const count = (x: Page) => x.evaluate(() => ({ elements: document.querySelectorAll("*").length, head: document.head.innerHTML.length, cookie: document.cookie }));
    expect(await count(p)).toEqual({ ...(await count(bare)), elements: (await count(bare)).elements + 1 });
    await noScript.close();
    expect(setCookies).toEqual([]);
    // No CSP or Trusted Types violation, no script error; only the failed loads this test provokes.
    expect(errors.filter((e) => !/Failed to load resource: .*(favicon\.ico|NETWORKFAILURE|404)/.test(e))).toEqual([]);

    await shotBoth(p, "embed-badges");
    if (screenshotsWanted) for (const id of Object.keys(expected)) await state(p, id).screenshot({ path: path.join(import.meta.dirname, "screenshots", `embed-${id.slice(2)}.png`) });
    await ctx.close();

    // The bundled library where WebCrypto has no Ed25519: the same verdicts.
    const fallback = await browser.newContext();
    await fallback.addInitScript(() => {
      const importKey = crypto.subtle.importKey.bind(crypto.subtle);
      crypto.subtle.importKey = ((...args: Parameters<SubtleCrypto["importKey"]>) => {
        const alg = args[2];
        if ((typeof alg === "string" ? alg : alg.name) === "Ed25519") return Promise.reject(new DOMException("Ed25519 not supported", "NotSupportedError"));
        return importKey(...args);
      }) as SubtleCrypto["importKey"];
    });
    const f = await fallback.newPage();
    await f.goto(`http://127.0.0.1:${sitePort}/shop.html`);
    await expectBadges(f, expected);
    await fallback.close();

    // The listing on its own website (resolved to loopback): green.
    const own = `http://${domain}:${sitePort}`;
    const b2 = await browserOnHost(domain, own);
    try {
      const q = await b2.newPage();
      const errs = await collectBrowserErrors(q);
      await q.goto(`${own}/listing.html`);
      await expect(state(q, "b-listing")).toHaveAttribute("data-state", "verified");
      await expect(state(q, "b-listing")).toContainText("Seaview Apartments");
      // The organisation's wallet record is green on the organisation's own proved domain, and only there.
      await expect(state(q, "b-wallet-home")).toHaveAttribute("data-state", "verified");
      await expect(state(q, "b-wallet-home")).toContainText("Statement by Seaview Apartments Ltd");
      const border = await q.evaluate(() => getComputedStyle(document.querySelector("#b-listing")!.shadowRoot!.querySelector(".badge")!).borderLeftColor);
      expect(border).toBe("rgb(21, 128, 61)");
      expect(errs.filter((e) => !e.includes("favicon.ico"))).toEqual([]);
      await shotBoth(q, "embed-listing-own-site");
    } finally {
      await b2.close();
    }
  } finally {
    proxy.close();
    site.close();
  }
});

test("a look-alike domain proved by an account that calls itself a real company: amber on its own site, never green", async () => {
  // The attacker's steps: register a look-alike domain, prove it, name the account after the company it copies, paste the badge.
  const a = await liveCustomerAccount("lookalike");
  const key = a.liveKey;
  const name = "Coinbase, Inc.";
  expect((await api("PATCH", "/api/v1/account", key, { name })).status).toBe(200);
  const domain = `coinbase-help-${randomUUID().slice(0, 8)}.example.com`;
  const c = (await api("POST", "/api/v1/domain-challenges", key, { domain })).body;
  setDns(c.txt_name, [c.txt_value]);
  const id = await record(key, { subject: domain, claim_type: "domain_ownership", claim: `Coinbase controls ${domain}.`, evidence: { challenge_id: c.id } });
  const site = customerSite({ "/": page("Coinbase support", `${baseURL}/embed.js`, [["b-site", "Verified by Proof Records", id]]) }, baseURL);
  const port = await listen(site);
  const own = `http://${domain}:${port}`;
  const b = await browserOnHost(domain, own);
  try {
    const q = await b.newPage();
    await q.setViewportSize({ width: 1280, height: 900 });
    const errs = await collectBrowserErrors(q);
    await q.goto(`${own}/`);
    const badge = state(q, "b-site");
    await expect(badge).toHaveAttribute("data-state", "unverified_operator");
    await expect(badge.locator(".title")).toHaveText("Who runs this site is not verified");
    await expect(badge.locator(".detail")).toContainText(`${domain} is controlled by an account that calls itself`);
    // The self-declared name is data, in an element of its own: it cannot close the service's quotes.
    await expect(badge.locator(".selfname")).toHaveText(name);
    await expect(badge.locator(".title")).not.toContainText("Coinbase");
    const look = await q.evaluate(() => {
      const root = document.querySelector("#b-site")!.shadowRoot!;
      return { border: getComputedStyle(root.querySelector(".badge")!).borderLeftColor, icon: root.querySelector(".mark path")!.getAttribute("d") };
    });
    expect(look.border).toBe("rgb(180, 83, 9)"); // amber (#b45309), not green (rgb(21, 128, 61))
    expect(look.icon).not.toContain("M9 12.5l2 2 4-4.5"); // no check mark
    expect(errs.filter((e) => !e.includes("favicon.ico"))).toEqual([]);
    await shotBoth(q, "embed-unverified-operator");
    if (screenshotsWanted) await badge.screenshot({ path: path.join(import.meta.dirname, "screenshots", "embed-unverified-operator-badge.png") });
  } finally {
    await b.close();
    site.close();
  }
});

test("the portal shows a record's embed snippet, a copy button and the live badge", async ({ browser }) => {
  const ctx = await newClientContext(browser);
  const p = await ctx.newPage();
  const errors = await collectBrowserErrors(p);
  const email = `e2e-embed-portal-${randomUUID().slice(0, 8)}@example.com`;
  const sandboxKey = await signUp(p, email);
  const id = await record(sandboxKey, { subject: "Seaview Apartments", claim_type: "company_status", claim: "Seaview Apartments is active." });
  await signIn(p, email, `/records/${id}`);
  const panel = p.getByTestId("embed-panel");
  await expect(panel.getByTestId("embed-snippet")).toHaveText(`<div data-prs-record="${id}"></div>\n<script src="${baseURL}/embed.js" async></script>`);
  await expect(panel.getByRole("button", { name: /copy/i }).first()).toBeVisible();
  await expect(panel).toContainText("its badge always says “Sandbox — not verified”");
  await expect(p.locator(`[data-testid="embed-preview"] [data-prs-record="${id}"] .badge`)).toHaveAttribute("data-state", "sandbox");
  expect(errors).toEqual([]);
  await panel.scrollIntoViewIfNeeded();
  await shotBoth(p, "portal-record-embed");
  await ctx.close();
});
