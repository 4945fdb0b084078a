import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { admin, baseUrl, call, issue, newAccount, newLiveAccount, setDns, until } from "../helpers";
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
    const unnamed = { name: null, name_verified: false, organisation: null, verified_domains: [] };
    expect(before.account).toEqual(unnamed);
    expect((await verifiedStatus(before.verification_id)).account).toEqual(unnamed);

    const p = await call("PATCH", "/api/v1/account", { key, body: { name: "  Globex Corporation " } });
    expect(p.status, p.text).toBe(200);
    expect(p.body).toMatchObject({ object: "account", name: "Globex Corporation", name_verified: false, organisation: null });

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
    // The self-declared name is data: an element of its own between the service's quotation marks.
    expect(page).toMatch(/An account calling itself “<bdi [^>]*data-testid="self-name"[^>]*>Globex Corporation<\/bdi>”/);
    expect(page).toContain("Name not verified");

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
      // Quotation marks that would close the service's own around the name, and the words the service vouches with (issue 38).
      [{ name: "Coinbase, Inc.” (verified organisation, LEI 5493001KJTIIGC8Y1R12) — not “x" }, "invalid_format", "name"],
      [{ name: 'Coinbase "Inc"' }, "invalid_format", "name"],
      [{ name: "Coinbase, Inc. (verified organisation)" }, "invalid_value", "name"],
      [{ name: "Coinbase, Inc. — checked by Proof Records" }, "invalid_value", "name"],
      [{ name: "Coinbase LEI 5493001KJTIIGC8Y1R12" }, "invalid_value", "name"],
      [{}, "missing_field", "name"],
    ];
    for (const [body, code, param] of cases) {
      const r = await call("PATCH", "/api/v1/account", { key, body });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error).toMatchObject({ code, param });
    }
    expect((await call("GET", "/api/v1/account", { key })).body.name).toBeNull();
    // Brackets, apostrophes and a surname that is also three letters of "LEI" are ordinary names.
    const fine = await call("PATCH", "/api/v1/account", { key, body: { name: "Lei & O'Brien (UK) Ltd" } });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.name).toBe("Lei & O'Brien (UK) Ltd");
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

  it("a verified organisation is named by its legal name, verified, and its name is locked until a new verification", async () => {
    const { liveKey: key, accountId } = await newLiveAccount();
    expect((await call("PATCH", "/api/v1/account", { key, body: { name: "Whatever I Like Ltd" } })).status).toBe(200);
    const { domain } = await proveDomain(key);
    const rec = await issue(key);
    await admin("organisation", "verify", "--account", accountId, "--legal-name", "Initech Holdings Limited", "--jurisdiction", "GB", "--domains", `${domain},not-proved.example`);
    const a = (await call("GET", "/api/v1/account", { key })).body;
    expect(a).toMatchObject({ name: "Initech Holdings Limited", name_verified: true });
    expect(a.organisation).toMatchObject({ legal_name: "Initech Holdings Limited", lei: null, basis: "documents", status: "verified", jurisdiction: "GB", domains: [domain] });
    const status = await verifiedStatus(rec.verification_id);
    expect(status.account).toMatchObject({ name: "Initech Holdings Limited", name_verified: true, organisation: { legal_name: "Initech Holdings Limited" } });
    const locked = await call("PATCH", "/api/v1/account", { key, body: { name: "Something Else" } });
    expect(locked.status, locked.text).toBe(409);
    expect(locked.body.error).toMatchObject({ code: "name_locked", param: "name" });
    const page = await (await fetch(`${baseUrl()}/r/${rec.verification_id}`)).text();
    expect(page).toContain("✓ Verified organisation");
    expect(page).not.toContain("An account calling itself");
    await admin("organisation", "remove", "--account", accountId);
    const after = await verifiedStatus(rec.verification_id);
    expect(after.account).toMatchObject({ name_verified: false, organisation: null });
  });

  it("sandbox domain proofs never count as verified domains", async () => {
    const { sandboxKey: key } = await newAccount("acct");
    await proveDomain(key);
    expect((await call("GET", "/api/v1/account", { key })).body.verified_domains).toEqual([]);
  });
});
