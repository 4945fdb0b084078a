import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { call, newLiveAccount } from "../helpers";
import { domainRecord } from "../proved-records";

/**
 * Look-alike domains and the exact-host rule (CONTRACT "What still stands", "Embed badge"):
 * a Cyrillic `аррӏе` domain is shown with its A-label everywhere it is shown publicly, and a
 * proof of `www.x` makes the badge green on `www.x` only.
 */
describe("look-alike domains", () => {
  it("a Cyrillic look-alike of apple is shown with its A-label: signed status, certificate, directory", async () => {
    const { liveKey } = await newLiveAccount();
    const tag = randomUUID().slice(0, 6);
    const domain = `аррӏе${tag}.com`; // Cyrillic а р р ӏ е, then ASCII: mixed with Latin digits/letters of the tag
    const id = (await domainRecord(liveKey, domain)).id;
    const ascii = new URL(`https://${domain}`).hostname;
    expect(ascii).toMatch(/^xn--/);

    const status = (await call("GET", `/api/v1/records/${id}/status`)).body;
    expect(status.display.subject).toBe(`${domain} (${ascii})`);
    expect(status.covers_hosts).toEqual([ascii, `www.${ascii}`].sort());

    const page = await call("GET", `/r/${id}`);
    expect(page.text).toContain(`data-a-label="${ascii}"`);
    expect(page.text).toContain(`look-alike characters: the real address is ${ascii}`);

    const dir = await call("GET", `/directory?q=${encodeURIComponent(domain)}`);
    expect(dir.text).toContain(`data-a-label="${ascii}"`);
  });

  it("the whole-script Cyrillic аррӏе.com is shown beside xn--80ak6aa92e.com on /check", async () => {
    const page = await call("GET", `/check?website=${encodeURIComponent("аррӏе.com")}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-a-label="xn--80ak6aa92e.com"');
  });

  it("a plain domain is shown as typed, with no A-label", async () => {
    const { liveKey } = await newLiveAccount();
    const domain = `plain-${randomUUID().slice(0, 8)}.example.com`;
    const id = (await domainRecord(liveKey, domain)).id;
    expect((await call("GET", `/api/v1/records/${id}/status`)).body.display).toEqual({ subject: domain, websites: [domain] });
    expect((await call("GET", `/r/${id}`)).text).not.toContain("data-a-label");
  });
});

describe("exact-host coverage", () => {
  it("a proof of www.x covers www.x only; a proof of x covers x and www.x", async () => {
    const { liveKey } = await newLiveAccount();
    const bare = `exact-${randomUUID().slice(0, 8)}.example.com`;
    const wwwId = (await domainRecord(liveKey, `www.${bare}`)).id;
    const www = (await call("GET", `/api/v1/records/${wwwId}/status`)).body;
    expect(www.covers_hosts).toEqual([`www.${bare}`]);

    // Another account (an account's proved domains are covered by all its records: one coverage rule, issue 38).
    const second = await newLiveAccount();
    const other = `exact-${randomUUID().slice(0, 8)}.example.com`;
    const bareId = (await domainRecord(second.liveKey, other)).id;
    expect((await call("GET", `/api/v1/records/${bareId}/status`)).body.covers_hosts).toEqual([other, `www.${other}`]);
    // The first account proves it too: each of its records now covers both, each exactly.
    await domainRecord(liveKey, other);
    expect((await call("GET", `/api/v1/records/${wwwId}/status`)).body.covers_hosts).toEqual([other, `www.${bare}`, `www.${other}`].sort());
  });
});
