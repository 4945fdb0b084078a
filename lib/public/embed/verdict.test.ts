import { describe, expect, it } from "vitest";
import { coversHost, verdictFor, type StatusAnswer } from "./verdict";

const status = (over: Partial<StatusAnswer> = {}): StatusAnswer => ({
  verification_id: "PRS-0000000000000000000A", status: "active", environment: "live", verified: true,
  evidence_level: "source_verified", subject: "Seaview Apartments", websites: [], as_of: new Date().toISOString(),
  account: { name: "Seaview Ltd", name_verified: true }, covers_hosts: [], ...over,
});
const at = (host: string, onService = false) => ({ host, onService });
const say = (s: StatusAnswer, host = "example.org", onService = false) => verdictFor({ kind: "answer", status: s }, at(host, onService));

describe("what the badge says", () => {
  it("is green only for a verified record on a host it covers", () => {
    const covered = { covers_hosts: ["example.org", "www.example.org"] };
    expect(say(status(covered))).toMatchObject({ state: "verified", tone: "good", title: "Verified — checked against a source" });
    expect(say(status({ ...covered, evidence_level: "evidence_verified" })).title).toBe("Verified — confirmed by a Proof Records reviewer");
    expect(say(status({ ...covered, verified: false, evidence_level: "participant_attested" }))).toMatchObject({ state: "stated", tone: "neutral" });
  });

  it("is neutral, never green, for a record naming no website — wherever it is shown (a wallet badge on a phishing page)", () => {
    const wallet = status({ subject: "0xAbC", websites: [], covers_hosts: [] });
    for (const host of ["phish.test", "example.org", "coinbase.com"]) {
      const v = say(wallet, host);
      expect(v).toMatchObject({ state: "about", tone: "neutral", title: "Record about 0xAbC, not about this site" });
    }
  });

  it("is amber, never green, for a checked record of an account whose name nobody verified — on its own site too", () => {
    // The attacker's steps: register a look-alike domain, prove it, call the account "Coinbase, Inc.", paste the badge.
    const lookalike = status({ subject: "coinbase-support.example", account: { name: "Coinbase, Inc.", name_verified: false }, covers_hosts: ["coinbase-support.example"] });
    const v = say(lookalike, "coinbase-support.example");
    expect(v).toMatchObject({ state: "unverified_operator", tone: "caution", title: "Who runs this site is not verified" });
    expect(v.detail).toBe("coinbase-support.example is controlled by an account that calls itself");
    // The name is data, shown in an element of its own — never inside the service's sentence.
    expect(v.named).toEqual({ name: "Coinbase, Inc.", after: "— a name nobody verified." });
    expect(`${v.title} ${v.detail}`).not.toContain("Coinbase");
    expect(v.title).not.toMatch(/verified —|✓/i);
    // A name made to close the quotes and speak as the service stays inside its element.
    const forged = say(status({ account: { name: "x” (verified organisation) — Statement by Coinbase", name_verified: false }, covers_hosts: ["example.org"] }));
    expect(forged.detail).not.toContain("Statement by");
    expect(forged.named?.name).toBe("x” (verified organisation) — Statement by Coinbase");
    // An unnamed account: amber too, nothing to quote.
    const unnamed = say(status({ account: { name: null, name_verified: false }, covers_hosts: ["example.org"] }));
    expect(unnamed).toMatchObject({ state: "unverified_operator", tone: "caution", detail: "example.org is controlled by an account that gives no name." });
    expect(unnamed.named).toBeUndefined();
    // The service's own preview says the same, in amber.
    expect(say(lookalike, "proof.example", true)).toMatchObject({ state: "unverified_operator", detail: "This site is controlled by an account that calls itself" });
    // Off its covered hosts it warns as any record does.
    expect(say(lookalike, "coinbase.com").state).toBe("about");
  });

  it("says sandbox, and never green, for a sandbox record", () => {
    expect(say(status({ environment: "sandbox", verified: false }))).toMatchObject({ state: "sandbox", title: "Sandbox — not verified" });
  });

  it.each(["suspended", "revoked", "expired", "superseded"])("says %s plainly, in red", (s) => {
    const v = say(status({ status: s, verified: false }));
    expect(v.state).toBe("inactive");
    expect(v.tone).toBe("bad");
    expect(v.title.toLowerCase()).toContain(s);
  });

  it("warns on a site the record does not cover, and only there", () => {
    const listing = status({ websites: ["seaview.example"], covers_hosts: ["seaview.example", "www.seaview.example"] });
    expect(say(listing, "seaview.example").state).toBe("verified");
    expect(say(listing, "www.seaview.example").state).toBe("verified");
    expect(say(listing, "SEAVIEW.EXAMPLE.").state).toBe("verified");
    // Exact hosts only: another subdomain is not covered.
    expect(say(listing, "book.seaview.example").state).toBe("wrong_site");
    const wrong = say(listing, "seaview.example.evil.test");
    expect(wrong).toMatchObject({ state: "wrong_site", tone: "bad", title: "Shown on a site this record does not cover" });
    expect(wrong.detail).toContain("seaview.example");
    expect(say(listing, "notseaview.example").state).toBe("wrong_site");
    // The service's own pages (the portal's preview) show the record as its site will.
    expect(say(listing, "proof.example", true).state).toBe("verified");
    // A revoked record says revoked wherever it is shown.
    expect(say({ ...listing, status: "revoked", verified: false }, "evil.test").state).toBe("inactive");
  });

  it("could not verify, in red, whatever went wrong", () => {
    for (const reason of ["network", "signature", "unknown_key", "malformed", "wrong_record", "stale", "bad_id", "insecure_page"] as const) {
      expect(verdictFor({ kind: "unverifiable", reason }, at("x.test"))).toMatchObject({ state: "unverified", tone: "bad", title: "Could not verify" });
    }
    expect(verdictFor({ kind: "not_found" }, at("x.test"))).toMatchObject({ state: "not_found", tone: "bad" });
  });
});

describe("coversHost", () => {
  it("matches exact hosts only, not subdomains or look-alikes", () => {
    expect(coversHost("shop.example.com", ["example.com"])).toBe(false);
    expect(coversHost("www.example.com", ["example.com", "www.example.com"])).toBe(true);
    expect(coversHost("example.com", ["shop.example.com"])).toBe(false);
    expect(coversHost("badexample.com", ["example.com"])).toBe(false);
    expect(coversHost("xn--bcher-kva.de", ["xn--bcher-kva.de"])).toBe(true);
    expect(coversHost("example.com", [""])).toBe(false);
  });
});

describe("look-alike domains on the badge", () => {
  it("shows the server's signed display form (with the A-label), not the raw subject", async () => {
    const { verdictFor: v, shownSubject } = await import("./verdict");
    const status = {
      verification_id: "PRS-X", status: "active", environment: "live", verified: true, evidence_level: "source_verified",
      subject: "аррӏе.com", websites: ["xn--80ak6aa92e.com"], as_of: new Date().toISOString(), covers_hosts: [],
      display: { subject: "аррӏе.com (xn--80ak6aa92e.com)", websites: ["xn--80ak6aa92e.com"] },
      account: { name: "A", name_verified: false },
    };
    expect(shownSubject(status)).toBe("аррӏе.com (xn--80ak6aa92e.com)");
    const wrong = v({ kind: "answer", status }, { host: "apple.com", onService: false });
    expect(wrong.state).toBe("wrong_site");
    expect(wrong.detail).toContain("xn--80ak6aa92e.com");
    const about = v({ kind: "answer", status: { ...status, websites: [], display: { subject: status.display.subject, websites: [] } } }, { host: "x.com", onService: false });
    expect(about.title).toContain("аррӏе.com (xn--80ak6aa92e.com)");
  });
});
