import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { admin, call, newAccount, newLiveAccount, untilRechecked } from "../helpers";
import { LEI, randomLei, setLeiRecord, updateLeiRecord } from "../lei-register";
import { domainRecord, walletRecord } from "../proved-records";
import { PDF, upload } from "../uploads";
import { verifyWithJwks } from "../signatures";
import { startReceiver, waitFor } from "../webhook-receiver";

/**
 * verified_listing (CONTRACT "verified_listing", "What a public yes requires"): a listing
 * issues at once only when every part is checked — the operator is the account's verified
 * organisation, the link is on the proved domain, the domain and wallet rest on this
 * account's records; anything else (an IBAN payee, a licence number, another operator's name
 * or link) waits for a reviewer; a part that stops being active shows as lapsed in the
 * listing's signed status at once, the listing is suspended by the system, and its own
 * record.status_changed is sent.
 */
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

/** A live account that is the verified organisation `legalName` (recorded by staff). */
async function verifiedOrganisation(legalName: string) {
  const live = await newLiveAccount();
  await admin("organisation", "verify", "--account", live.accountId, "--legal-name", legalName);
  return live;
}

const listing = (evidence: Record<string, unknown>) => ({
  subject: "Seaview Apartments", claim_type: "verified_listing", claim: "Seaview Apartments runs listing 4471.", visibility: "public",
  evidence: { operator: "Seaview Apartments", listing_url: "https://rentals.example/listing/4471", ...evidence },
});

async function verifiedStatus(id: string) {
  const { status_signature, ...signed } = (await call("GET", `/api/v1/records/${id}/status`)).body;
  expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
  return signed;
}

describe("verified_listing", () => {
  it("every part checked → 201 source_verified; a lapsed part shows at once and the listing announces it", async () => {
    const live = await verifiedOrganisation("Seaview Apartments");
    const ep = rx.endpoint(`listing-${randomUUID().slice(0, 6)}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: live.liveKey, body: { url: ep.url, events: ["record.status_changed"] } });
    expect(hook.status, hook.text).toBe(201);
    ep.setSecret(hook.body.secret);
    const d = await domainRecord(live.liveKey);
    const w = await walletRecord(live.liveKey);
    const r = await call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: listing({
        listing_url: `https://${d.domain}/listing/4471`, domain: d.domain.toUpperCase(),
        payee: { type: "wallet", value: w.address.toLowerCase(), network: "ethereum" }, domain_record: d.id, payee_record: w.id,
      }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ evidence_level: "source_verified", verified: true });
    expect(r.body.evidence.domain).toBe(d.domain);
    expect(r.body.checks.map((c: { fact: string; by: string }) => `${c.fact}:${c.by}`)).toEqual(["operator:source", "listing_link:source", "domain:source", "payee:source"]);
    const id = r.body.verification_id as string;
    let st = await verifiedStatus(id);
    expect(st.parts).toEqual(expect.arrayContaining([
      { role: "domain_record", verification_id: d.id, standing: "active" },
      { role: "payee_record", verification_id: w.id, standing: "active" },
    ]));

    expect((await call("POST", `/api/v1/records/${d.id}/lifecycle`, { key: live.liveKey, body: { operation: "suspend", reason: "Domain in transfer." } })).status).toBe(200);
    st = await verifiedStatus(id);
    expect(st.parts.find((p: { role: string }) => p.role === "domain_record")).toEqual({ role: "domain_record", verification_id: d.id, standing: "lapsed" });
    // The listing follows its part at once (CONTRACT "What still stands"; tests/api/dependent-standing.test.ts).
    expect(st.status).toBe("suspended");
    const page = await call("GET", `/r/${id}`);
    expect(page.text).toContain("no longer active (suspended)");
    const evt = await waitFor(() => ep.received().find((e) => e.body.data?.operation === "suspend" && e.body.data.record.verification_id === id));
    expect(evt.body.data).toMatchObject({ part: d.id, previous_status: "active", record: { verification_id: id, status: "suspended" } });
    // Its status already moved: a later change of the part that does not move it is announced as part_changed.
    expect((await call("POST", `/api/v1/records/${d.id}/lifecycle`, { key: live.liveKey, body: { operation: "revoke", reason: "Domain sold." } })).status).toBe(200);
    const changed = await waitFor(() => ep.received().find((e) => e.body.data?.operation === "part_changed" && e.body.data.record.verification_id === id));
    expect(changed.body.data).toMatchObject({ part: d.id, record: { verification_id: id, status: "suspended" } });
  });

  it("an organisation's lapse reaches its listings: suspended by the system with the reason and an event, reinstated when it is verified again", async () => {
    // The register lapses the entity (its LEI re-check asked for: the operator's `organisation recheck`); staff remove a verification.
    const name = `Seaview ${randomUUID().slice(0, 6)} Apartments`;
    const lei = randomLei();
    const { recordsFile } = inject("leiRegister");
    setLeiRecord(recordsFile, lei, { legalName: name, jurisdiction: "MT", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    const live = await newLiveAccount();
    await admin("organisation", "verify", "--account", live.accountId, "--legal-name", name, "--lei", lei);
    const ep = rx.endpoint(`orglapse-${randomUUID().slice(0, 6)}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: live.liveKey, body: { url: ep.url, events: ["record.status_changed"] } });
    ep.setSecret(hook.body.secret);
    const d = await domainRecord(live.liveKey);
    const w = await walletRecord(live.liveKey);
    const r = await call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: listing({ operator: name, listing_url: `https://${d.domain}/listing/4471`, domain: d.domain, payee: { type: "wallet", value: w.address, network: "ethereum" }, domain_record: d.id, payee_record: w.id }),
    });
    expect(r.status, r.text).toBe(201);
    const id = r.body.verification_id as string;
    expect((await verifiedStatus(id)).status).toBe("active");

    updateLeiRecord(recordsFile, lei, { entityStatus: "INACTIVE" });
    const suspended = await untilRechecked("the listing suspended by the organisation's lapse", { organisation: live.accountId }, async () => {
      const st = await verifiedStatus(id);
      return st.status === "suspended" ? st : null;
    });
    expect(suspended.verified).toBe(false);
    const page = await call("GET", `/r/${id}`);
    expect(page.text).toContain("The operator&#x27;s organisation verification lapsed (");
    const evt = await waitFor(() => ep.received().find((e) => e.body.data?.operation === "suspend" && e.body.data.record.verification_id === id));
    expect(evt.body.data).toMatchObject({ previous_status: "active", record: { verification_id: id, status: "suspended" } });
    // The owner cannot lift the system's suspension while the organisation is lapsed.
    const lift = await call("POST", `/api/v1/records/${id}/lifecycle`, { key: live.liveKey, body: { operation: "reinstate", reason: "Please." } });
    expect(lift.status, lift.text).toBeGreaterThanOrEqual(400);
    // Its parts were never touched: they stand on their own.
    expect((await verifiedStatus(d.id)).status).toBe("active");

    updateLeiRecord(recordsFile, lei, { entityStatus: "ACTIVE" });
    await untilRechecked("the listing reinstated with the organisation", { organisation: live.accountId }, async () => (await verifiedStatus(id)).status === "active");
    const back = await waitFor(() => ep.received().find((e) => e.body.data?.operation === "reinstate" && e.body.data.record.verification_id === id));
    expect(back.body.data).toMatchObject({ previous_status: "suspended", record: { status: "active" } });

    // Staff remove the verification: the same; a new verification brings it back.
    await admin("organisation", "remove", "--account", live.accountId);
    expect((await verifiedStatus(id)).status).toBe("suspended");
    expect((await call("GET", `/r/${id}`)).text).toContain("Proof Records removed the verification");
    await admin("organisation", "verify", "--account", live.accountId, "--legal-name", name, "--lei", lei);
    expect((await verifiedStatus(id)).status).toBe("active");
  });

  it("a licence number waits for a reviewer (202) when every other part is checked; without it the same listing is 201", async () => {
    const live = await verifiedOrganisation("Seaview Apartments");
    const d = await domainRecord(live.liveKey);
    const w = await walletRecord(live.liveKey);
    const checked = { listing_url: `https://${d.domain}/listing/4471`, domain: d.domain, domain_record: d.id, payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id };
    const licence = await call("POST", "/api/v1/records", {
      key: live.liveKey, body: listing({ ...checked, licence: { authority: "Malta Tourism Authority", number: "HPI/1234" } }),
    });
    expect(licence.status, licence.text).toBe(202);
    expect(licence.body).toMatchObject({ status: "pending_review", evidence_level: null, verified: false, review: { evidence_level: "evidence_verified" } });
    expect(licence.body.review.reason).toMatch(/^Not checked: licence\./);
    expect((await call("GET", `/api/v1/records/${licence.body.verification_id}/status`)).status).toBe(404);
    // The licence was the only part left unchecked: the same listing without it issues at once.
    const without = await call("POST", "/api/v1/records", { key: live.liveKey, body: listing(checked) });
    expect(without.status, without.text).toBe(201);
    expect(without.body).toMatchObject({ status: "active", evidence_level: "source_verified" });
  });

  it("an IBAN payee waits for a reviewer (202), and with a licence names both; a bad IBAN is 422", async () => {
    const live = await verifiedOrganisation("Seaview Apartments");
    const d = await domainRecord(live.liveKey);
    const iban = await call("POST", "/api/v1/records", {
      key: live.liveKey, body: listing({ listing_url: `https://${d.domain}/4471`, domain: d.domain, domain_record: d.id, payee: { type: "iban", value: "de89 3704 0044 0532 0130 00", account_name: "Seaview Apartments" } }),
    });
    expect(iban.status, iban.text).toBe(202);
    expect(iban.body).toMatchObject({ status: "pending_review", evidence_level: null, review: { evidence_level: "evidence_verified" } });
    expect(iban.body.review.reason).toMatch(/^Not checked: payee\./);
    expect(iban.body.review.reason).toContain("IBAN");
    const licence = await call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: listing({ listing_url: `https://${d.domain}/4471`, domain: d.domain, domain_record: d.id, payee: { type: "iban", value: "DE89370400440532013000" }, licence: { authority: "Malta Tourism Authority", number: "HPI/1234" } }),
    });
    expect(licence.status, licence.text).toBe(202);
    expect(licence.body.review.reason).toMatch(/^Not checked: payee, licence\./);
    const bad = await call("POST", "/api/v1/records", {
      key: live.liveKey, body: listing({ domain: d.domain, domain_record: d.id, payee: { type: "iban", value: "DE89 3704 0044 0532 0130 01" } }),
    });
    expect(bad.body.error).toMatchObject({ code: "invalid_iban", param: "evidence.payee.value" });
  });

  it("refuses linked records that are not active, not this account's, of another kind or about something else", async () => {
    const live = await newLiveAccount();
    const other = await newLiveAccount();
    const d = await domainRecord(live.liveKey);
    const w = await walletRecord(live.liveKey);
    const theirs = await walletRecord(other.liveKey);
    const sandbox = await newAccount("listing");
    const base = { domain: d.domain, domain_record: d.id, payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ domain: "another.example.com" }, "linked_record_invalid", "evidence.domain_record"],
      [{ payee_record: theirs.id }, "linked_record_invalid", "evidence.payee_record"],
      [{ payee_record: d.id }, "linked_record_invalid", "evidence.payee_record"],
      [{ payee: { type: "wallet", value: theirs.address, network: "ethereum" } }, "linked_record_invalid", "evidence.payee_record"],
      [{ payee_record: undefined }, "missing_field", "evidence.payee_record"],
      [{ payee: { type: "wallet", value: "0x1234", network: "ethereum" } }, "invalid_address", "evidence.payee.value"],
    ];
    for (const [over, code, param] of cases) {
      const r = await call("POST", "/api/v1/records", { key: live.liveKey, body: listing({ ...base, ...over }) });
      expect(r.status, `${JSON.stringify(over)}: ${r.text}`).toBe(422);
      expect(r.body.error, JSON.stringify(over)).toMatchObject({ code, param });
    }
    // A sandbox listing cannot rest on live records.
    const sbx = await call("POST", "/api/v1/records", { key: sandbox.sandboxKey, body: listing(base) });
    expect(sbx.body.error).toMatchObject({ code: "linked_record_invalid" });
    expect((await call("POST", `/api/v1/records/${w.id}/lifecycle`, { key: live.liveKey, body: { operation: "revoke", reason: "Key lost." } })).status).toBe(200);
    const revoked = await call("POST", "/api/v1/records", { key: live.liveKey, body: listing(base) });
    expect(revoked.body.error).toMatchObject({ code: "linked_record_invalid", param: "evidence.payee_record" });
  });

  it("a listing speaks only for its own operator: an account that is not that verified organisation is refused (422), whatever it calls itself or uploads", async () => {
    // The real operator: a verified organisation with its own proved domain.
    const owner = await verifiedOrganisation("Seaview Apartments");
    const theirs = await domainRecord(owner.liveKey);
    // The attacker: its own domain and wallet on record, nothing else; it names the real operator, links the real site, makes up a licence.
    const attacker = await newLiveAccount();
    const d = await domainRecord(attacker.liveKey);
    const w = await walletRecord(attacker.liveKey);
    const asTheOperator = (over: Record<string, unknown> = {}, documents?: string[]) => call("POST", "/api/v1/records", {
      key: attacker.liveKey,
      body: {
        ...listing({
          operator: "Seaview Apartments", listing_url: `https://${theirs.domain}/listing/4471`, domain: d.domain, domain_record: d.id,
          payee: { type: "iban", value: "DE89 3704 0044 0532 0130 00", account_name: "Seaview Apartments" },
          licence: { authority: "Malta Tourism Authority", number: "HPI/0000" }, ...over,
        }),
        ...(documents && { documents }),
      },
    });
    const before = (await call("GET", "/api/v1/records?limit=100", { key: attacker.liveKey })).body.data.length;
    const r = await asTheOperator();
    expect(r.status, r.text).toBe(422);
    expect(r.body.error).toMatchObject({ code: "operator_not_own_organisation", param: "evidence.operator" });
    expect(r.body.error.message).toContain("This account is not a verified organisation.");
    expect(r.body.error.message).toContain("a reviewer cannot confirm another operator from documents");
    // With a forged bank letter attached: the same (no reviewer ever sees it).
    const letter = await upload(attacker.liveKey, PDF, "bank-letter.pdf");
    expect(letter.status, JSON.stringify(letter.body)).toBe(201);
    const withDoc = await asTheOperator({}, [letter.body.id as string]);
    expect(withDoc.status, withDoc.text).toBe(422);
    expect(withDoc.body.error).toMatchObject({ code: "operator_not_own_organisation" });
    // Calling itself by the operator's name changes nothing: a self-declared name is not a verified organisation.
    expect((await call("PATCH", "/api/v1/account", { key: attacker.liveKey, body: { name: "Seaview Apartments" } })).status).toBe(200);
    const named = await asTheOperator({ listing_url: `https://${d.domain}/x`, licence: undefined, payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id });
    expect(named.status, named.text).toBe(422);
    expect(named.body.error).toMatchObject({ code: "operator_not_own_organisation", param: "evidence.operator" });
    // Nothing was written: no submission for a reviewer, no record.
    expect((await call("GET", "/api/v1/records?limit=100", { key: attacker.liveKey })).body.data.length).toBe(before);

    // Its company_identity record is not a licence (checked before the operator: a linked part is refused first).
    const company = await call("POST", "/api/v1/records", {
      key: attacker.liveKey,
      body: { subject: "Proof Records Test Company Ltd", claim_type: "company_identity", claim: "Holds an active LEI.", visibility: "public", evidence: { lei: LEI.active } },
    });
    expect(company.status, company.text).toBe(201);
    const asLicence = await call("POST", "/api/v1/records", {
      key: attacker.liveKey,
      body: {
        ...listing({
          operator: "Proof Records Test Company Ltd", listing_url: `https://${d.domain}/x`, domain: d.domain, domain_record: d.id,
          payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id,
          licence: { authority: "GLEIF", number: LEI.active }, licence_record: company.body.verification_id,
        }),
        subject: "Proof Records Test Company Ltd",
      },
    });
    expect(asLicence.status, asLicence.text).toBe(422);
    expect(asLicence.body.error).toMatchObject({ code: "linked_record_invalid", param: "evidence.licence_record" });
  });

  it("the listing link counts only on the proved domain or www. + it; a verified organisation cannot name another operator", async () => {
    const live = await verifiedOrganisation("Seaview Apartments");
    const d = await domainRecord(live.liveKey);
    const w = await walletRecord(live.liveKey);
    const send = (over: Record<string, unknown>) => call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: listing({ domain: d.domain, domain_record: d.id, payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id, ...over }),
    });
    const www = await send({ listing_url: `https://www.${d.domain}/listing/1` });
    expect(www.status, www.text).toBe(201);
    for (const url of [`https://book.${d.domain}/1`, `https://${d.domain}.rentals.example/1`, "https://rentals.example/listing/4471"]) {
      const r = await send({ listing_url: url });
      expect(r.status, `${url}: ${r.text}`).toBe(202);
      expect(r.body.review.reason).toMatch(/^Not checked: listing_link\./);
    }
    // A verified organisation cannot list another operator either (a marketplace on someone's behalf): 422, naming its own name.
    const other = await send({ listing_url: `https://${d.domain}/1`, operator: "Seaview Holidays" });
    expect(other.status, other.text).toBe(422);
    expect(other.body.error).toMatchObject({ code: "operator_not_own_organisation", param: "evidence.operator" });
    expect(other.body.error.message).toContain('is not this account\'s verified organisation "Seaview Apartments"');
    const noDomainRecord = await send({ listing_url: `https://${d.domain}/1`, domain_record: undefined });
    expect(noDomainRecord.status, noDomainRecord.text).toBe(202);
    expect(noDomainRecord.body.review.reason).toMatch(/^Not checked: listing_link, domain\./);
  });
});
