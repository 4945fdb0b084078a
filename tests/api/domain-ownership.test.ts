import { describe, expect, it } from "vitest";
import { admin, call, dnsQueries, issue, newAccount, recheckNow, setDns, until, untilRechecked } from "../helpers";

const uniq = () => `t${Math.random().toString(36).slice(2, 10)}`;

async function challenge(key: string, domain: string) {
  const r = await call("POST", "/api/v1/domain-challenges", { key, body: { domain } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}
const prove = (key: string, subject: string, challengeId: string, over: Record<string, unknown> = {}) =>
  call("POST", "/api/v1/records", {
    key, body: { subject, claim_type: "domain_ownership", claim: `Controls DNS for ${subject}.`, evidence: { challenge_id: challengeId }, visibility: "public", ...over },
  });

describe("domain challenges", () => {
  it("returns the TXT record to publish, normalising the domain", async () => {
    const { sandboxKey } = await newAccount();
    const c = await challenge(sandboxKey, "  Shop.EXAMPLE.com. ");
    expect(c).toMatchObject({ object: "domain_challenge", domain: "shop.example.com", txt_name: "_prs-challenge.shop.example.com" });
    expect(c.id).toMatch(/^dch_[A-Za-z0-9]{20}$/);
    expect(c.txt_value).toBe(`prs-verification=${c.token}`);
    const ttl = Date.parse(c.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(3590_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
    const idn = await challenge(sandboxKey, "Bücher.de");
    expect(idn.domain).toBe("xn--bcher-kva.de");
  });

  it.each([
    ["localhost"], ["com"], ["co.uk"], ["127.0.0.1"], ["[::1]"], ["https://example.com"], ["example.com/path"],
    ["example.com:8080"], ["exa mple.com"], ["-bad.com"], ["a..b.com"], ["printer.local"], ["user@example.com"],
  ])("refuses %s with 422 invalid_domain", async (domain) => {
    const { sandboxKey } = await newAccount();
    const r = await call("POST", "/api/v1/domain-challenges", { key: sandboxKey, body: { domain } });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: "invalid_domain", param: "domain" });
  });

  it("validates the body like every endpoint", async () => {
    const { sandboxKey } = await newAccount();
    expect((await call("POST", "/api/v1/domain-challenges", { key: sandboxKey, body: {} })).body.error.code).toBe("missing_field");
    expect((await call("POST", "/api/v1/domain-challenges", { key: sandboxKey, body: { domain: "a.com", x: 1 } })).body.error.code).toBe("unknown_field");
    expect((await call("POST", "/api/v1/domain-challenges", { body: { domain: "a.com" } })).status).toBe(401);
  });
});

describe("domain_ownership records", () => {
  it("issues source_verified when the TXT record is published, and shows how to re-check it", async () => {
    const { sandboxKey } = await newAccount();
    const domain = `${uniq()}.example.com`;
    const c = await challenge(sandboxKey, domain);
    setDns(c.txt_name, ["unrelated=1", c.txt_value]);
    const r = await prove(sandboxKey, domain, c.id);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      claim_type: "domain_ownership", subject: domain, evidence_level: "source_verified", status: "active",
      evidence: { challenge_id: c.id, domain, txt_name: c.txt_name, txt_value: c.txt_value },
    });
    expect(r.body.lifecycle.recheck_at).not.toBeNull();
    const page = await call("GET", `/r/${r.body.verification_id}`);
    expect(page.text).toContain("What was proved");
    expect(page.text).toContain(`dig +short TXT ${c.txt_name}`);
    expect(page.text).toContain("What this record does not prove");
    const sig = await call("GET", `/api/v1/records/${r.body.verification_id}/signature`);
    expect(sig.body.signed_payload.evidence.txt_value).toBe(c.txt_value);
    // Single use: the same challenge cannot prove again.
    const again = await prove(sandboxKey, domain, c.id);
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: "challenge_used", param: "evidence.challenge_id" });
  });

  it("answers 422 dns_record_not_found while the record is missing or wrong, and the challenge stays usable", async () => {
    const { sandboxKey } = await newAccount();
    const domain = `${uniq()}.example.org`;
    const c = await challenge(sandboxKey, domain);
    const missing = await prove(sandboxKey, domain, c.id);
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: "dns_record_not_found" });
    expect(missing.body.error.message).toContain(c.txt_name);
    setDns(c.txt_name, ["prs-verification=somebody-elses-token"]);
    const wrong = await prove(sandboxKey, domain, c.id);
    expect(wrong.body.error.code).toBe("dns_record_not_found");
    expect((await call("GET", "/api/v1/records", { key: sandboxKey })).body.data).toEqual([]);
    setDns(c.txt_name, [c.txt_value]);
    expect((await prove(sandboxKey, domain, c.id)).status).toBe(201);
  });

  it("goes to pending_review (202) when the resolver does not answer or fails", async () => {
    const { sandboxKey } = await newAccount();
    for (const failure of ["drop", "servfail"] as const) {
      const domain = `${uniq()}.example.net`;
      const c = await challenge(sandboxKey, domain);
      setDns(c.txt_name, failure);
      const r = await prove(sandboxKey, domain, c.id);
      expect(r.status, r.text).toBe(202);
      expect(r.body).toMatchObject({ status: "pending_review", certificate_url: null, verified: false });
      expect(r.body.review.reason).toMatch(/DNS resolver did not answer/);
    }
  });

  it("refuses another account's challenge, a mismatched subject and extra evidence", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const domain = `${uniq()}.example.com`;
    const c = await challenge(a.sandboxKey, domain);
    setDns(c.txt_name, [c.txt_value]);
    const foreign = await prove(b.sandboxKey, domain, c.id);
    expect(foreign.body.error).toMatchObject({ code: "challenge_not_found", param: "evidence.challenge_id" });
    const other = await prove(a.sandboxKey, `other-${domain}`, c.id);
    expect(other.body.error).toMatchObject({ code: "subject_mismatch", param: "subject" });
    const extra = await prove(a.sandboxKey, domain, c.id, { evidence: { challenge_id: c.id, txt: "x" } });
    expect(extra.body.error).toMatchObject({ code: "unknown_field", param: "evidence.txt" });
    const noEvidence = await prove(a.sandboxKey, domain, c.id, { evidence: undefined });
    expect(noEvidence.body.error).toMatchObject({ code: "missing_field", param: "evidence.challenge_id" });
    const attested = await prove(a.sandboxKey, domain, c.id, { evidence_level: "participant_attested" });
    expect(attested.body.error.code).toBe("evidence_level_not_allowed");
    expect((await prove(a.sandboxKey, domain, c.id)).status).toBe(201);
  });

  it("suspends the record when a periodic re-check finds the TXT record gone", async () => {
    const { sandboxKey } = await newAccount();
    const domain = `${uniq()}.example.com`;
    const c = await challenge(sandboxKey, domain);
    setDns(c.txt_name, [c.txt_value]);
    const rec = (await prove(sandboxKey, domain, c.id)).body;
    const statusNow = async () => (await call("GET", `/api/v1/records/${rec.verification_id}/status`)).body.status as string;
    // One re-check with the record still there: it asked the DNS server again, and the next one is scheduled later.
    const asked = dnsQueries(c.txt_name);
    await untilRechecked("a re-check with the TXT record in place", rec.verification_id, async () => {
      if (dnsQueries(c.txt_name) <= asked) return false;
      const r = (await call("GET", `/api/v1/records/${rec.verification_id}`, { key: sandboxKey })).body;
      return Date.parse(r.lifecycle.recheck_at) > Date.parse(rec.lifecycle.recheck_at);
    });
    expect(await statusNow()).toBe("active");
    setDns(c.txt_name, null);
    let status = await untilRechecked("the re-check to suspend it", rec.verification_id, async () => {
      const s = await statusNow();
      return s !== "active" && s;
    });
    expect(status).toBe("suspended");
    const got = (await call("GET", `/api/v1/records/${rec.verification_id}`, { key: sandboxKey })).body;
    expect(got.lifecycle.history.at(-1)).toMatchObject({ status: "suspended", by: "system" });
    expect(got.lifecycle.history.at(-1).reason).toContain(c.txt_name);

    // Published again: the next passing re-check lifts the suspension it made.
    setDns(c.txt_name, [c.txt_value]);
    status = await untilRechecked("the re-check to lift the suspension", rec.verification_id, async () => {
      const s = await statusNow();
      return s !== "suspended" && s;
    });
    expect(status).toBe("active");
    const back = (await call("GET", `/api/v1/records/${rec.verification_id}`, { key: sandboxKey })).body;
    expect(back.lifecycle.history.map((h: { status: string; by: string }) => [h.status, h.by])).toEqual([
      ["active", "owner"], ["suspended", "system"], ["active", "system"],
    ]);
  });

  it("the operator's 'record recheck' brings a re-check forward; a record without one, an unknown id and an account without an LEI are refused", async () => {
    const { sandboxKey, accountId } = await newAccount();
    const { rec } = await provedDomain(sandboxKey);
    const forward = await recheckNow(rec.verification_id);
    expect(forward.record_id).toBe(rec.verification_id);
    expect(Date.parse(forward.recheck_at)).toBeLessThan(Date.parse(rec.lifecycle.recheck_at)); // due now, not in a day
    const plain = await issue(sandboxKey); // company_status: never re-checked
    await expect(recheckNow(plain.verification_id)).rejects.toThrow(/not_rechecked/);
    await expect(recheckNow(`PRS-${"0".repeat(20)}`)).rejects.toThrow(/record_not_found/);
    await expect(admin("organisation", "recheck", "--account", accountId)).rejects.toThrow(/not_rechecked/);
  });

  /** A domain_ownership record of `key`'s account, its TXT record published. */
  async function provedDomain(key: string) {
    const domain = `${uniq()}.example.com`;
    const c = await challenge(key, domain);
    setDns(c.txt_name, [c.txt_value]);
    return { c, rec: (await prove(key, domain, c.id)).body };
  }

  /**
   * A marker: a second record of the account, made due and re-checked, twice — the scheduler
   * has run two rounds since, with the record under test due in both.
   */
  async function twoSweepsOver(key: string) {
    const { rec: marker } = await provedDomain(key);
    for (let round = 0; round < 2; round++) {
      const due = Date.parse((await recheckNow(marker.verification_id)).recheck_at);
      await until("a scheduler round over the marker record", async () => {
        const r = (await call("GET", `/api/v1/records/${marker.verification_id}`, { key })).body;
        return Date.parse(r.lifecycle.recheck_at) > due;
      }, 20_000, 250);
    }
  }

  it("never lifts a suspension made by the owner, even while the TXT record is in place, nor postpones its re-check", async () => {
    const { sandboxKey } = await newAccount();
    const { c, rec } = await provedDomain(sandboxKey);
    const s = await call("POST", `/api/v1/records/${rec.verification_id}/lifecycle`, { key: sandboxKey, body: { operation: "suspend", reason: "paused by us" } });
    expect(s.status, s.text).toBe(200);
    const due = (await recheckNow(rec.verification_id)).recheck_at as string; // due now
    const asked = dnsQueries(c.txt_name);
    await twoSweepsOver(sandboxKey);
    const got = (await call("GET", `/api/v1/records/${rec.verification_id}`, { key: sandboxKey })).body;
    expect(got.status).toBe("suspended");
    expect(got.lifecycle.history.map((h: { status: string; by: string }) => [h.status, h.by])).toEqual([["active", "owner"], ["suspended", "owner"]]);
    // Not asked, and still due: the re-check waits for the reinstatement.
    expect(dnsQueries(c.txt_name)).toBe(asked);
    expect(Date.parse(got.lifecycle.recheck_at)).toBe(Date.parse(due));
  });

  it("an owner cannot dodge a due re-check by suspending around it: the reinstatement runs it and refuses while the TXT record is gone", async () => {
    const { sandboxKey } = await newAccount();
    const { c, rec } = await provedDomain(sandboxKey);
    const id = rec.verification_id as string;
    const lifecycle = (operation: string) => call("POST", `/api/v1/records/${id}/lifecycle`, { key: sandboxKey, body: { operation, reason: "ours" } });
    // The attacker's steps: suspend, take the proof down, let the re-check come and go, reinstate.
    expect((await lifecycle("suspend")).status).toBe(200);
    setDns(c.txt_name, null);
    const due = (await recheckNow(id)).recheck_at as string; // due now, and the scheduler passes it by
    await twoSweepsOver(sandboxKey);
    const asked = dnsQueries(c.txt_name);
    const refused = await lifecycle("reinstate");
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "recheck_failed", param: "operation" });
    expect(refused.body.error.message).toMatch(/re-check was due.*failed/);
    expect(refused.body.error.message).toContain(c.txt_name);
    expect(dnsQueries(c.txt_name)).toBeGreaterThan(asked); // it really asked, then and there
    const after = (await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body;
    expect(after.status).toBe("suspended");
    expect(after.lifecycle.history.map((h: { status: string; by: string }) => [h.status, h.by])).toEqual([["active", "owner"], ["suspended", "owner"]]);
    expect((await call("GET", `/api/v1/records/${id}/status`)).body.status).toBe("suspended");
    // Staff cannot wave it through either (the operator CLI, as staff).
    await expect(admin("record", "reinstate", "--id", id, "--reason", "Looks fine to me.")).rejects.toThrow(/recheck_failed/);
    // With the proof back, the reinstatement runs the re-check, passes, and schedules the next one.
    setDns(c.txt_name, [c.txt_value]);
    const ok = await lifecycle("reinstate");
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe("active");
    expect(Date.parse(ok.body.lifecycle.recheck_at)).toBeGreaterThan(Date.parse(due));
    expect(Date.parse(ok.body.lifecycle.recheck_at)).toBeGreaterThan(Date.now() - 1000);
  }, 60_000);

  it.each(["drop", "servfail"] as const)("a DNS outage (%s) during re-checks suspends nothing; re-checks resume when DNS answers", async (outage) => {
    const { sandboxKey } = await newAccount();
    const domain = `${uniq()}.example.com`;
    const c = await challenge(sandboxKey, domain);
    setDns(c.txt_name, [c.txt_value]);
    const made = await prove(sandboxKey, domain, c.id);
    expect(made.status, made.text).toBe(201);
    const id = made.body.verification_id;
    const owner = async () => (await call("GET", `/api/v1/records/${id}`, { key: sandboxKey })).body;
    const issued = await owner();

    // The resolver stops answering (or answers SERVFAIL) for this name; re-checks keep asking.
    setDns(c.txt_name, outage);
    const asked = dnsQueries(c.txt_name);
    // (A record no longer active is not re-checked: stop waiting then, the checks below say why.)
    await untilRechecked("three re-check look-ups during the outage", id, async () => dnsQueries(c.txt_name) >= asked + 3 || (await owner()).status !== "active", 30_000);
    const during = await owner();
    expect(during.status).toBe("active");
    expect(during.lifecycle.history).toEqual(issued.lifecycle.history);
    expect((await call("GET", `/api/v1/records/${id}/status`)).body.status).toBe("active");

    // DNS is back with the record in place: the next re-check passes and schedules the one after.
    setDns(c.txt_name, [c.txt_value]);
    const after = await untilRechecked("a successful re-check after the outage", id, async () => {
      const r = await owner();
      return Date.parse(r.lifecycle.recheck_at) > Date.parse(during.lifecycle.recheck_at) && r;
    }, 30_000);
    expect(after.status).toBe("active");
    expect(after.lifecycle.history).toEqual(issued.lifecycle.history);
  }, 90_000);
});
