import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { admin, sentenceText } from "../helpers";
import { portalPage, staffSession } from "../portal-client";
import { domainRecord } from "../proved-records";

/**
 * The portal's badge panel promises what the badge does (issue 38, items 6 and 13): the exact
 * hosts of the signed `covers_hosts`, never "(and subdomains)"; green only for a verified
 * organisation, amber — said so — for any other account.
 */
describe("the portal's badge panel", () => {
  it("names the exact hosts, says amber for an account that is not a verified organisation, and green once it is", async () => {
    const me = await staffSession(null, "panel");
    await admin("account", "confirm-email", "--account", me.accountId);
    await admin("plan", "set", "--account", me.accountId, "--plan", "growth");
    const key = String((await admin("key", "create", "--account", me.accountId, "--env", "live")).key);
    const d = await domainRecord(key, `panel-${randomUUID().slice(0, 8)}.example.com`);

    const before = sentenceText((await portalPage(me, `/records/${d.id}`)).html);
    expect(before).toContain(`On exactly ${d.domain}, www.${d.domain} it shows amber — “who runs this site is not verified” — because this account is not a verified organisation`);
    expect(before).not.toContain("and subdomains");
    expect(before).not.toContain("shows green only");

    await admin("organisation", "verify", "--account", me.accountId, "--legal-name", `Panel ${randomUUID().slice(0, 6)} Ltd`);
    const after = sentenceText((await portalPage(me, `/records/${d.id}`)).html);
    expect(after).toContain(`It shows green only on exactly ${d.domain}, www.${d.domain} — not on other subdomains`);
    expect(after).not.toContain("and subdomains");
  });
});
