import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, newAccount, newLiveAccount, setDns } from "../helpers";
import { verifyWithJwks } from "../signatures";
import { startReceiver, waitFor } from "../webhook-receiver";

/**
 * verified_listing (CONTRACT "verified_listing"): parts resting on this account's domain and
 * wallet records issue at once; an IBAN payee or a licence number waits for a reviewer; a
 * part that stops being active shows as lapsed in the listing's signed status at once, and
 * the listing's own record.status_changed is sent.
 */
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

async function domainRecord(key: string) {
  const domain = `listing-${randomUUID().slice(0, 8)}.example.com`;
  const c = (await call("POST", "/api/v1/domain-challenges", { key, body: { domain } })).body;
  setDns(c.txt_name, [c.txt_value]);
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.id } },
  });
  expect(r.status, r.text).toBe(201);
  return { domain, id: r.body.verification_id as string };
}

async function walletRecord(key: string) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: acct.address, network: "ethereum" } })).body;
  const signature = await acct.signMessage({ message: c.message });
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: acct.address, claim_type: "wallet_ownership", claim: "Controls the wallet.", visibility: "public", evidence: { challenge_id: c.id, signature } },
  });
  expect(r.status, r.text).toBe(201);
  return { address: acct.address, id: r.body.verification_id as string };
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
  it("all parts on record → 201 source_verified; a lapsed part shows at once and the listing announces it", async () => {
    const live = await newLiveAccount();
    const ep = rx.endpoint(`listing-${randomUUID().slice(0, 6)}`);
    const hook = await call("POST", "/api/v1/webhooks", { key: live.liveKey, body: { url: ep.url, events: ["record.status_changed"] } });
    expect(hook.status, hook.text).toBe(201);
    ep.setSecret(hook.body.secret);
    const d = await domainRecord(live.liveKey);
    const w = await walletRecord(live.liveKey);
    const r = await call("POST", "/api/v1/records", {
      key: live.liveKey,
      body: listing({ domain: d.domain.toUpperCase(), payee: { type: "wallet", value: w.address.toLowerCase(), network: "ethereum" }, domain_record: d.id, payee_record: w.id }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ evidence_level: "source_verified", verified: true });
    expect(r.body.evidence.domain).toBe(d.domain);
    const id = r.body.verification_id as string;
    let st = await verifiedStatus(id);
    expect(st.parts).toEqual(expect.arrayContaining([
      { role: "domain_record", verification_id: d.id, standing: "active" },
      { role: "payee_record", verification_id: w.id, standing: "active" },
    ]));

    expect((await call("POST", `/api/v1/records/${d.id}/lifecycle`, { key: live.liveKey, body: { operation: "suspend", reason: "Domain in transfer." } })).status).toBe(200);
    st = await verifiedStatus(id);
    expect(st.parts.find((p: { role: string }) => p.role === "domain_record")).toEqual({ role: "domain_record", verification_id: d.id, standing: "lapsed" });
    expect(st.status).toBe("active");
    const page = await call("GET", `/r/${id}`);
    expect(page.text).toContain("no longer active (suspended)");
    const evt = await waitFor(() => ep.received().find((e) => e.body.data?.operation === "part_changed" && e.body.data.record.verification_id === id));
    expect(evt.body.data).toMatchObject({ part: d.id, record: { verification_id: id, status: "active" } });
  });

  it("an IBAN payee or a licence number waits for a reviewer (202); a bad IBAN is 422", async () => {
    const live = await newLiveAccount();
    const d = await domainRecord(live.liveKey);
    const iban = await call("POST", "/api/v1/records", {
      key: live.liveKey, body: listing({ domain: d.domain, domain_record: d.id, payee: { type: "iban", value: "de89 3704 0044 0532 0130 00", account_name: "Seaview Apartments" } }),
    });
    expect(iban.status, iban.text).toBe(202);
    expect(iban.body).toMatchObject({ status: "pending_review", evidence_level: null, review: { evidence_level: "evidence_verified" } });
    expect(iban.body.review.reason).toContain("IBAN");
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
});
