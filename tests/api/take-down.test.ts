import { describe, expect, it } from "vitest";
import { admin, call, newLiveAccount } from "../helpers";
import { nextIp } from "../portal-client";
import { domainRecord, walletRecord } from "../proved-records";
import { verifyWithJwks } from "../signatures";

/**
 * Take-downs keep warning (issue 38, item 11): a value whose record Proof Records staff revoked
 * stays a red warning on /check, the lookup and the home box — "Proof Records took a record with
 * this payee down on ‹date›: ‹reason›. Do not pay." — never a grey "not on record, proves
 * nothing". Signatures are checked with jose + canonicalize.
 */
async function signed(path: string) {
  const r = await call("GET", path, { headers: { "x-forwarded-for": nextIp() } });
  expect(r.status, r.text).toBe(200);
  const { signature, ...rest } = r.body;
  expect(await verifyWithJwks(rest, signature, rest.signing_key_id)).toBe(true);
  return rest;
}

describe("a value whose record Proof Records took down", () => {
  it("stays a red warning on the lookup, /check and the home box, with the date and the public reason", async () => {
    // The attacker's steps: an account proves a wallet and a website, collects payments; a victim reports it; staff revoke.
    const scam = await newLiveAccount();
    expect((await call("PATCH", "/api/v1/account", { key: scam.liveKey, body: { name: "Seaview Holiday Lets" } })).status).toBe(200);
    const wallet = await walletRecord(scam.liveKey);
    const site = await domainRecord(scam.liveKey);
    const before = await signed(`/api/v1/lookup?${new URLSearchParams({ q: wallet.address })}`);
    expect(before).toMatchObject({ result: "checked", taken_down: null });

    const reason = "Reported by payers: this wallet took deposits for rentals that do not exist.";
    expect(await admin("record", "revoke", "--id", wallet.id, "--reason", reason)).toMatchObject({ record_id: wallet.id, status: "revoked" });
    expect(await admin("record", "revoke", "--id", site.id, "--reason", "Phishing copy of a rental site.")).toMatchObject({ status: "revoked" });

    const lookup = await signed(`/api/v1/lookup?${new URLSearchParams({ q: wallet.address })}`);
    expect(lookup.result).toBe("no_match");
    expect(lookup.matches).toEqual([]);
    expect(lookup.taken_down).toMatchObject({ verification_id: wallet.id, reason, certificate_url: expect.stringContaining(`/r/${wallet.id}`) });
    expect(Date.parse(lookup.taken_down.at)).toBeGreaterThan(Date.now() - 10 * 60_000);

    const check = await signed(`/api/v1/check?${new URLSearchParams({ website: site.domain, payee: wallet.address })}`);
    expect(check.parts.payee).toMatchObject({ verdict: "mismatch", taken_down: { verification_id: wallet.id, reason } });
    expect(check.parts.website).toMatchObject({ verdict: "mismatch", taken_down: { verification_id: site.id, reason: "Phishing copy of a rental site." } });
    expect(check.overall).toBe("mismatch");
    const day = lookup.taken_down.at.slice(0, 10);
    expect(check.summary).toBe(`Stop: Proof Records took a record with this website down on ${day}: Phishing copy of a rental site.; Proof Records took a record with this payee down on ${day}: ${reason}. Do not pay.`);

    const page = await call("GET", `/check?${new URLSearchParams({ payee: wallet.address })}`, { headers: { "x-forwarded-for": nextIp() } });
    expect(page.text).toMatch(/data-testid="check-overall" data-verdict="mismatch"/);
    expect(page.text).toContain("Taken down by Proof Records");
    expect(page.text).not.toContain("proves nothing");
    const home = await call("GET", `/?${new URLSearchParams({ q: wallet.address })}`, { headers: { "x-forwarded-for": nextIp() } });
    expect(home.status).toBe(200);
    expect(home.text).toContain('data-testid="taken-down"');
    expect(home.text).toContain("Proof Records took a record with this");
    expect(home.text).not.toContain("no guarantee either way");

    // A page link on the taken-down site warns too: the record was about the website, the stranger pasted a page of it.
    const link = `https://${site.domain}/flats/12?from=ad`;
    const byLink = await signed(`/api/v1/lookup?${new URLSearchParams({ q: link })}`);
    expect(byLink).toMatchObject({ type: "listing_url", result: "no_match", taken_down: { verification_id: site.id, kind: "website", reason: "Phishing copy of a rental site." } });
    const linkHome = await call("GET", `/?${new URLSearchParams({ q: link })}`, { headers: { "x-forwarded-for": nextIp() } });
    expect(linkHome.text).toContain('data-testid="taken-down"');
    expect(linkHome.text).toMatch(/Proof Records took a record with this (<!-- -->)?website(<!-- -->)? down/);
  });

  it("an owner's own revocation is no take-down", async () => {
    const owner = await newLiveAccount();
    const w = await walletRecord(owner.liveKey);
    expect((await call("POST", `/api/v1/records/${w.id}/lifecycle`, { key: owner.liveKey, body: { operation: "revoke", reason: "Wallet retired." } })).status).toBe(200);
    expect((await signed(`/api/v1/lookup?${new URLSearchParams({ q: w.address })}`)).taken_down).toBeNull();
    const c = await signed(`/api/v1/check?${new URLSearchParams({ payee: w.address })}`);
    expect(c.parts.payee).toMatchObject({ verdict: "not_on_record", taken_down: null });
  });
});
