import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { call, newAccount, newLiveAccount } from "../helpers";
import { domainRecord } from "../proved-records";

/**
 * dex_control through the HTTP API (spec 2.6): each subtype submits as 202 pending_review,
 * metered as a reviewed verification only on approval; the builder's named wallet is never
 * in an answer; evidence is refreshed through POST /records/{id}/evidence. Approval, the 24 h
 * rule, the 90 days and the snapshots: tests/db/dex-control.test.ts; the console:
 * e2e/dex-control.spec.ts.
 */
const USER = "0x1111111111111111111111111111111111111111";
const VAULT = "0xdfc24b077bc1425ad1dea75bcb6f8158e10df303";

async function challenge(key: string, wallet = privateKeyToAccount(generatePrivateKey())) {
  const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: wallet.address, network: "ethereum", claim_type: "dex_control" } })).body;
  return { wallet, challenge_id: c.id as string, signature: await wallet.signMessage({ message: c.message }) };
}

const submit = (key: string, subtype: string, c: Awaited<ReturnType<typeof challenge>>, evidence: Record<string, unknown>) =>
  call("POST", "/api/v1/records", {
    key,
    body: {
      subject: c.wallet.address, claim_type: "dex_control", subtype, claim: "Controls the exchange wallet.", visibility: "public",
      evidence: { challenge_id: c.challenge_id, signature: c.signature, social_handle: "@acmetrade", ...evidence },
    },
  });

describe("dex_control over HTTP", () => {
  it("all three subtypes submit as 202 pending_review; the builder's named wallet is in no answer", async () => {
    const live = await newLiveAccount();
    const d = await domainRecord(live.liveKey);
    const builder = await submit(live.liveKey, "builder", await challenge(live.liveKey), { domain: d.domain, domain_record: d.id, user_address: USER });
    const leader = await submit(live.liveKey, "vault_leader", await challenge(live.liveKey), { domain: d.domain, domain_record: d.id, vault_address: VAULT });
    const owner = await submit(live.liveKey, "wallet_owner", await challenge(live.liveKey), { mode: "domainless", social_post_url: "https://social.example/acmetrade/status/7" });
    for (const r of [builder, leader, owner]) {
      expect(r.status, r.text).toBe(202);
      expect(r.body).toMatchObject({ status: "pending_review", evidence_level: null, review: { evidence_level: "evidence_verified" }, certificate_url: null });
    }
    expect(builder.text.toLowerCase()).not.toContain(USER.slice(2));
    const got = await call("GET", `/api/v1/records/${builder.body.verification_id}`, { key: live.liveKey });
    expect(got.text.toLowerCase()).not.toContain(USER.slice(2));
    expect((await call("GET", `/api/v1/records/${builder.body.verification_id}/status`)).status).toBe(404); // nothing issued yet
  });

  it("names each missing or misplaced field", async () => {
    const { sandboxKey } = await newAccount("dex");
    const c = await challenge(sandboxKey);
    const r = await submit(sandboxKey, "vault_leader", c, { mode: "domainless", social_post_url: "https://social.example/p/1" });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: "field_not_allowed", param: "evidence.mode" });
    const noSubtype = await call("POST", "/api/v1/records", { key: sandboxKey, body: { subject: c.wallet.address, claim_type: "dex_control", claim: "x", evidence: {} } });
    expect(noSubtype.status).toBe(422);
    expect(noSubtype.body.error.param).toMatch(/^(subtype|evidence\.)/);
    const other = await call("POST", "/api/v1/records", { key: sandboxKey, body: { subject: "Acme", claim_type: "company_status", claim: "x", subtype: "builder" } });
    expect(other.body.error).toMatchObject({ code: "unknown_field", param: "subtype" });
  });

  it("POST /records/{id}/evidence refreshes a pending submission with a new signature for the same wallet, and nothing else", async () => {
    const { sandboxKey } = await newAccount("dexref");
    const c = await challenge(sandboxKey);
    const sub = await submit(sandboxKey, "wallet_owner", c, { mode: "domainless", social_post_url: "https://social.example/acmetrade/status/9" });
    expect(sub.status, sub.text).toBe(202);
    const id = sub.body.verification_id as string;
    const again = await challenge(sandboxKey, c.wallet);
    const r = await call("POST", `/api/v1/records/${id}/evidence`, { key: sandboxKey, body: { evidence: { challenge_id: again.challenge_id, signature: again.signature } } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: "pending_review", evidence: { challenge_id: again.challenge_id, signature_checked: true } });
    expect(Date.parse(r.body.evidence.checked_at)).toBeGreaterThan(Date.parse(sub.body.evidence.checked_at));
    // The same challenge twice: used up.
    const reused = await call("POST", `/api/v1/records/${id}/evidence`, { key: sandboxKey, body: { evidence: { challenge_id: again.challenge_id, signature: again.signature } } });
    expect(reused.body.error).toMatchObject({ code: "challenge_used" });
    const bad = await call("POST", `/api/v1/records/${id}/evidence`, { key: sandboxKey, body: { evidence: { challenge_id: "nope" } } });
    expect(bad.status).toBe(422);
    const company = await call("POST", "/api/v1/records", { key: sandboxKey, body: { subject: "Acme", claim_type: "company_status", claim: "x" } });
    const notDex = await call("POST", `/api/v1/records/${company.body.verification_id}/evidence`, { key: sandboxKey, body: { evidence: {} } });
    expect(notDex.status).toBe(409);
    expect(notDex.body.error.code).toBe("invalid_transition");
    const stranger = await newAccount("dexstr");
    expect((await call("POST", `/api/v1/records/${id}/evidence`, { key: stranger.sandboxKey, body: { evidence: {} } })).status).toBe(404);
  });
});
