import { describe, expect, it } from "vitest";
import type { AccountProfile } from "@/lib/accounts/account-profile";
import { speakerName } from "@/lib/record-model/evidence-level-text";
import { badgeHosts, decideTrust, recordHosts, speakerOf, type TrustFacts } from "./decide";

const org = (over: Partial<NonNullable<AccountProfile["organisation"]>> = {}): NonNullable<AccountProfile["organisation"]> => ({
  legal_name: "Acme Widgets Limited", lei: "5493001KJTIIGC8Y1R12", jurisdiction: "GB", basis: "lei_register",
  status: "verified", verified_at: "2026-01-02T03:04:05.000Z", domains: [], ...over,
});
const verifiedOrg = (domains: string[] = []): AccountProfile =>
  ({ name: "Acme Widgets Limited", name_verified: true, organisation: org({ domains }), verified_domains: domains });
const selfDeclared: AccountProfile = { name: "Acme", name_verified: false, organisation: null, verified_domains: [] };
const unnamed: AccountProfile = { name: null, name_verified: false, organisation: null, verified_domains: [] };

const facts = (over: Partial<TrustFacts> = {}): TrustFacts => ({
  environment: "live", status: "active", evidenceLevel: "source_verified", partsStand: true, account: selfDeclared, ...over,
});

describe("speakerOf", () => {
  it("is a verified organisation only while the organisation is verified and the name is its legal name", () => {
    expect(speakerOf(verifiedOrg())).toBe("verified_organisation");
    expect(speakerOf({ ...verifiedOrg(), organisation: org({ status: "lapsed" }) })).toBe("self_declared");
    expect(speakerOf({ ...verifiedOrg(), name_verified: false })).toBe("self_declared");
    expect(speakerOf(selfDeclared)).toBe("self_declared");
    expect(speakerOf(unnamed)).toBe("unnamed");
  });

  it("names an unverified account as self-declared, never by its plain name", () => {
    expect(speakerName(selfDeclared)).toBe("an account calling itself “Acme” (name not verified)");
    expect(speakerName(unnamed)).toBe("an unnamed account");
    expect(speakerName(verifiedOrg())).toBe(verifiedOrg().name);
  });
});

describe("decideTrust", () => {
  it("a live, active, checked record by a verified organisation is verified and a lookup 'verified'", () => {
    const t = decideTrust(facts({ account: verifiedOrg() }));
    expect(t).toMatchObject({ speaker: "verified_organisation", organisationName: "Acme Widgets Limited", checked: true, stands: true, verified: true, lookup: "verified" });
  });

  it("checked by an account that is not a verified organisation: verified record, lookup only 'checked'", () => {
    expect(decideTrust(facts())).toMatchObject({ verified: true, lookup: "checked", organisationName: null });
  });

  it("only stated: not checked, not verified, lookup 'attested'", () => {
    expect(decideTrust(facts({ evidenceLevel: "participant_attested" }))).toMatchObject({ checked: false, verified: false, lookup: "attested" });
    expect(decideTrust(facts({ evidenceLevel: null }))).toMatchObject({ checked: false, verified: false });
  });

  it("does not stand when it or a part it rests on is not active; never a yes then", () => {
    expect(decideTrust(facts({ status: "suspended" }))).toMatchObject({ stands: false, verified: false, lookup: null });
    expect(decideTrust(facts({ partsStand: false, account: verifiedOrg() }))).toMatchObject({ stands: false, verified: false, lookup: null });
  });

  it("a sandbox record is never verified nor a lookup answer", () => {
    expect(decideTrust(facts({ environment: "sandbox", account: verifiedOrg() }))).toMatchObject({ verified: false, lookup: null });
  });
});

describe("recordHosts and badgeHosts: the one coverage rule (exact hosts)", () => {

  it("a proof of x covers x and www.x, nothing else", () => {
    expect(recordHosts(["example.com"], selfDeclared)).toEqual(["example.com", "www.example.com"]);
  });

  it("a proof of www.x covers www.x only: not x, not another subdomain", () => {
    const hosts = recordHosts(["www.example.com"], selfDeclared);
    expect(hosts).toEqual(["www.example.com"]);
    expect(hosts).not.toContain("example.com");
    expect(hosts).not.toContain("www.www.example.com");
  });

  it("a subdomain proof covers that subdomain (and its www.), not its parent", () => {
    expect(recordHosts(["shop.example.com"], selfDeclared)).toEqual(["shop.example.com", "www.shop.example.com"]);
  });

  it("hosts are compared as a browser's location.hostname: lower case, IDN as A-labels", () => {
    expect(recordHosts(["Example.COM."], selfDeclared)).toEqual(["example.com", "www.example.com"]);
    expect(recordHosts(["аррӏе.com"], selfDeclared)).toEqual(["www.xn--80ak6aa92e.com", "xn--80ak6aa92e.com"]);
  });

  it("adds the domains the account proves now, whoever it is (the badge's colour is the speaker's, not the rule's)", () => {
    expect(recordHosts([], { verified_domains: ["www.acme.example"] })).toEqual(["www.acme.example"]);
    expect(recordHosts(["example.com"], { verified_domains: ["acme.example"] })).toEqual(["acme.example", "example.com", "www.acme.example", "www.example.com"]);
    expect(recordHosts([], { verified_domains: [] })).toEqual([]);
  });

  it("the badge covers them while the record is verified, and nothing otherwise", () => {
    const about = recordHosts(["example.com"], { verified_domains: ["acme.example"] });
    expect(about).toEqual(["acme.example", "example.com", "www.acme.example", "www.example.com"]);
    expect(badgeHosts(about, { verified: true })).toEqual(about);
    expect(badgeHosts(about, { verified: false })).toEqual([]);
  });

  it("skips values that are not host names", () => {
    expect(recordHosts(["", "https://x.example/path", "a b"], selfDeclared)).toEqual([]);
  });
});
