import { createHash, generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { admin, baseURL, collectBrowserErrors, issue, shotBoth, liveCustomerAccount } from "./helpers";

/**
 * The badge's witness policy in Chromium (docs/embed.md, "Requiring witnesses"). The e2e
 * server has no witnesses: a page that requires one (`data-witness`) must not show the record
 * as it would otherwise, and says why; a malformed policy never passes; the same record
 * without a policy is shown as before.
 */
function witnessVkey(name: string) {
  const pub = Buffer.from(generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x!, "base64url");
  const id = createHash("sha256").update(`${name}\n`).update(Buffer.from([4])).update(pub).digest().subarray(0, 4).toString("hex");
  return `${name}+${id}+${Buffer.concat([Buffer.from([4]), pub]).toString("base64")}`;
}

test("a badge requiring witnesses does not vouch for an unwitnessed log entry", async ({ page }) => {
  const a = await liveCustomerAccount("witness");
  const key = a.liveKey;
  const id = await issue(key, "Witnessless Widgets Ltd");
  // Wait until its entry is in a checkpoint: the status carries the checkpoint (without cosignatures).
  await expect.poll(async () => (await (await fetch(`${baseURL}/api/v1/records/${id}/status`)).json()).transparency_log !== null, { timeout: 20_000 }).toBe(true);

  const w1 = witnessVkey("witness.example/w1");
  const w2 = witnessVkey("witness.example/w2");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Witnessless Widgets</title><script src="${baseURL}/embed.js" async></script></head><body><h1>Witnessless Widgets</h1>
<p>No policy</p><div id="plain" data-prs-record="${id}"></div>
<p>Requires 2 of 2 witnesses</p><div id="policy" data-prs-record="${id}" data-witness="${w1} ${w2}" data-witness-quorum="2"></div>
<p>A malformed policy (quorum above the list)</p><div id="bad" data-prs-record="${id}" data-witness="${w1}" data-witness-quorum="3"></div>
</body></html>`;
  const site = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  try {
    const errors = await collectBrowserErrors(page);
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    const badge = (el: string) => page.locator(`#${el} .badge`);
    await expect(badge("plain")).toHaveAttribute("data-state", "stated"); // its usual verdict: a company_status is the account's own word
    await expect(badge("policy")).toHaveAttribute("data-state", "unverified");
    await expect(badge("policy")).toContainText("not (yet) cosigned by enough of the witnesses");
    await expect(badge("bad")).toHaveAttribute("data-state", "unverified");
    await expect(badge("bad")).toContainText("data-witness-quorum attribute is not valid");
    expect(errors.filter((e) => !/favicon\.ico/.test(e))).toEqual([]);
    await shotBoth(page, "embed-witness-policy");
  } finally {
    site.close();
  }
});
