import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl, call, issue, newAccount, newLiveAccount, setDns, until } from "../helpers";
import { verifyWithJwks } from "../signatures";

/**
 * Who is speaking (CONTRACT "Signed status"): every record object, signed status and
 * certificate names the account that made the statement — its name (its own word) and the
 * domains it proved — and the signed payload of records issued after a change carries the
 * new name. Signatures are checked with jose + canonicalize.
 */
const status = async (id: string) => (await call("GET", `/api/v1/records/${id}/status`)).body;

async function verifiedStatus(id: string) {
  const { status_signature, ...signed } = await status(id);
  expect(await verifyWithJwks(signed, status_signature, signed.signing_key_id)).toBe(true);
  return signed;
}

async function proveDomain(key: string) {
  const domain = `acct-${randomUUID().slice(0, 8)}.example.com`;
  const c = (await call("POST", "/api/v1/domain-challenges", { key, body: { domain } })).body;
  setDns(c.txt_name, [c.txt_value]);
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: domain, claim_type: "domain_ownership", claim: `We control ${domain}.`, visibility: "public", evidence: { challenge_id: c.id } },
  });
  expect(r.status, r.text).toBe(201);
  return { domain, id: r.body.verification_id as string };
}

describe("the account that makes the statement", () => {
  it("an unnamed account reads as such; a name set with PATCH is signed into later records and shown at once on earlier ones", async () => {
    const { sandboxKey: key, accountId } = await newAccount("acct");
    expect((await call("GET", "/api/v1/account", { key })).body).toEqual({
      object: "account", id: accountId, name: null, name_verified: false, organisation: null, verified_domains: [], plan: "none", environment: "sandbox",
    });
    const before = await issue(key);
    expect(before.account).toEqual({ name: null, name_verified: false, organisation: null, verified_domains: [] });
    expect((await verifiedStatus(before.verification_id)).account).toEqual({ name: null, name_verified: false, organisation: null, verified_domains: [] });

    const p = await call("PATCH", "/api/v1/account", { key, body: { name: "  Globex Corporation " } });
    expect(p.status, p.text).toBe(200);
    expect(p.body).toMatchObject({ object: "account", name: "Globex Corporation" });

    // The earlier record's public view names the account at once (its cached status is dropped) …
    expect((await verifiedStatus(before.verification_id)).account.name).toBe("Globex Corporation");
    // … while its signed payload keeps what was true when it was issued.
    const oldSig = (await call("GET", `/api/v1/records/${before.verification_id}/signature`)).body;
    expect(oldSig.signed_payload.account).toEqual({ name: null });

    const after = await issue(key);
    expect(after.account.name).toBe("Globex Corporation");
    const sig = (await call("GET", `/api/v1/records/${after.verification_id}/signature`)).body;
    expect(sig.valid).toBe(true);
    expect(sig.signed_payload.account).toEqual({ name: "Globex Corporation" });
    expect(await verifyWithJwks(sig.signed_payload, sig.signature, sig.signing_key_id)).toBe(true);

    const page = await (await fetch(`${baseUrl()}/r/${after.verification_id}`)).text();
    expect(page).toContain("Globex Corporation");

    expect((await call("PATCH", "/api/v1/account", { key, body: { name: null } })).body.name).toBeNull();
    expect((await verifiedStatus(after.verification_id)).account.name).toBeNull();
  });

  it("refuses names that could mislead and bodies it does not know", async () => {
    const { sandboxKey: key } = await newAccount("acct");
    const cases: [unknown, string, string][] = [
      [{ name: "   " }, "missing_field", "name"],
      [{ name: "Globex\u202Egnp.exe" }, "invalid_format", "name"],
      [{ name: "x".repeat(201) }, "too_long", "name"],
      [{ name: 42 }, "invalid_type", "name"],
      [{ name: "Globex", plan: "growth" }, "unknown_field", "plan"],
      [{}, "missing_field", "name"],
    ];
    for (const [body, code, param] of cases) {
      const r = await call("PATCH", "/api/v1/account", { key, body });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ code, param });
    }
    expect((await call("GET", "/api/v1/account", { key })).body.name).toBeNull();
    expect((await call("GET", "/api/v1/account")).status).toBe(401);
    expect((await call("POST", "/api/v1/account", { key, body: {} })).status).toBe(405);
  });

  it("a proved live domain shows as a verified domain on the account's records, and goes when its record is revoked", async () => {
    const { liveKey: key } = await newLiveAccount();
    const rec = await issue(key);
    expect(rec.account.verified_domains).toEqual([]);
    const { domain, id: domainRecord } = await proveDomain(key);
    await until("the verified domain to show", async () => (await verifiedStatus(rec.verification_id)).account.verified_domains.includes(domain));
    expect((await call("GET", "/api/v1/account", { key })).body.verified_domains).toEqual([domain]);

    const rv = await call("POST", `/api/v1/records/${domainRecord}/lifecycle`, { key, body: { operation: "revoke", reason: "Domain sold." } });
    expect(rv.status, rv.text).toBe(200);
    await until("the domain to go", async () => (await verifiedStatus(rec.verification_id)).account.verified_domains.length === 0, 5_000);
  });

  it("sandbox domain proofs never count as verified domains", async () => {
    const { sandboxKey: key } = await newAccount("acct");
    await proveDomain(key);
    expect((await call("GET", "/api/v1/account", { key })).body.verified_domains).toEqual([]);
  });
});
