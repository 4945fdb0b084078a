import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { admin, call, newLiveAccount, sentenceText, setDns } from "../helpers";
import { randomLei, setLeiRecord } from "../lei-register";
import { verifyWithJwks } from "../signatures";

/**
 * The imposter, end to end (issue 25, CONTRACT "Trust model"). A real operator is a verified
 * organisation (legal name from the LEI register, its domain confirmed by a reviewer) with its
 * website, wallet and company record. A second live account copies it: it names itself the
 * same, proves a look-alike domain and its own wallet, issues a company_identity record of the
 * real company's LEI (public data), and lists another operator's listing URL with a made-up
 * licence number. No public answer — lookup, /check (API and page), signed status, certificate,
 * directory — may say match / verified / green for the imposter; the real operator gets match.
 */
const { recordsFile } = inject("leiRegister");

type Operator = Awaited<ReturnType<typeof newLiveAccount>>;

async function proveDomain(key: string, domain: string) {
  const c = (await call("POST", "/api/v1/domain-challenges", { key, body: { domain } })).body;
  setDns(c.txt_name, [c.txt_value]);
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility: "public", evidence: { challenge_id: c.id } },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.verification_id as string;
}

async function proveWallet(key: string) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: acct.address, network: "ethereum" } })).body;
  const r = await call("POST", "/api/v1/records", {
    key,
    body: {
      subject: acct.address, claim_type: "wallet_ownership", claim: "Our payment wallet.", visibility: "public",
      evidence: { challenge_id: c.id, signature: await acct.signMessage({ message: c.message }) },
    },
  });
  expect(r.status, r.text).toBe(201);
  return { address: acct.address, id: r.body.verification_id as string };
}

async function companyRecord(key: string, legalName: string, lei: string) {
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: legalName, claim_type: "company_identity", claim: `${legalName} holds LEI ${lei}.`, visibility: "public", evidence: { lei } },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.verification_id as string;
}

async function signedGet(path: string, sigField: "signature" | "status_signature") {
  const r = await call("GET", path, { headers: { "X-Forwarded-For": `203.0.113.${Math.floor(Math.random() * 250) + 1}` } });
  expect(r.status, r.text).toBe(200);
  const { [sigField]: sig, ...signed } = r.body;
  expect(await verifyWithJwks(signed, sig, signed.signing_key_id)).toBe(true);
  return signed;
}

const check = (q: Record<string, string>) => signedGet(`/api/v1/check?${new URLSearchParams(q)}`, "signature");
const lookup = (q: string, type?: string) => signedGet(`/api/v1/lookup?${new URLSearchParams({ q, ...(type ? { type } : {}) })}`, "signature");
const status = (id: string) => signedGet(`/api/v1/records/${id}/status`, "status_signature");
const page = async (path: string) => (await call("GET", path)).text;

describe("an imposter copying a real operator", () => {
  const tag = randomUUID().slice(0, 6);
  const legalName = `Walkthrough ${tag} Trading Ltd`;
  const lei = randomLei();
  const realDomain = `walkthrough-${tag}.example.com`;
  const lookAlike = `walkthrough-${tag}-secure-pay.example.net`;
  let real: Operator;
  let imposter: Operator;
  let realWallet: { address: string; id: string };
  let fakeWallet: { address: string; id: string };
  let realDomainId: string;
  let fakeDomainId: string;
  let realCompanyId: string;
  let fakeCompanyId: string;

  beforeAll(async () => {
    setLeiRecord(recordsFile, lei, { legalName, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
    real = await newLiveAccount();
    imposter = await newLiveAccount();
    realDomainId = await proveDomain(real.liveKey, realDomain);
    realWallet = await proveWallet(real.liveKey);
    realCompanyId = await companyRecord(real.liveKey, legalName, lei);
    // A reviewer verified the real organisation (its LEI in the register) and confirmed its domain.
    await admin("organisation", "verify", "--account", real.accountId, "--legal-name", legalName, "--lei", lei, "--jurisdiction", "GB", "--domains", realDomain);

    // The imposter: the same name typed in, a look-alike domain and its own wallet proved, the real LEI cited.
    expect((await call("PATCH", "/api/v1/account", { key: imposter.liveKey, body: { name: legalName } })).status).toBe(200);
    fakeDomainId = await proveDomain(imposter.liveKey, lookAlike);
    fakeWallet = await proveWallet(imposter.liveKey);
    fakeCompanyId = await companyRecord(imposter.liveKey, legalName, lei);
  });

  it("/check: the imposter's website and payee are never match — with the real organisation asked, a mismatch naming the name as self-declared", async () => {
    const r = await check({ operator: legalName, website: `https://${lookAlike}/pay`, payee: fakeWallet.address });
    // Issue 38 ("one coherent answer"): not an amber caution beside the operator's green, but red.
    expect(r.parts.website).toMatchObject({ verdict: "mismatch", on_record_for: legalName, name_verified: false, verification_id: fakeDomainId });
    expect(r.parts.payee).toMatchObject({ verdict: "mismatch", name_verified: false, verification_id: fakeWallet.id });
    expect(r.overall).toBe("mismatch");
    // Asked without the operator, the imposter's records are what they always were: amber, the name self-declared.
    const bare = await check({ website: `https://${lookAlike}/pay`, payee: fakeWallet.address });
    expect(bare.parts.website).toMatchObject({ verdict: "unverified_operator", name_verified: false, verification_id: fakeDomainId });
    expect(bare.parts.payee).toMatchObject({ verdict: "unverified_operator", name_verified: false, verification_id: fakeWallet.id });
    // The operator asked is a real verified organisation — and the answer points at the real one, never the imposter's record.
    expect(r.parts.operator).toMatchObject({ verdict: "match", on_record_for: legalName, lei, verification_id: realCompanyId });
    expect(r.overall).not.toBe("match");
    for (const p of Object.values(r.parts) as any[]) expect(p.verification_id).not.toBe(fakeCompanyId);
  });

  it("/check: the real website with the imposter's payee flags the payee", async () => {
    const r = await check({ operator: legalName, website: realDomain, payee: fakeWallet.address });
    expect(r.parts.website).toMatchObject({ verdict: "match", name_verified: true, verification_id: realDomainId });
    expect(r.parts.payee).toMatchObject({ verdict: "mismatch", name_verified: false });
    expect(r.overall).toBe("mismatch");
    expect(r.summary).toContain(`the payee is not on record for ${legalName}, a verified organisation`);
    const html = await page(`/check?${new URLSearchParams({ operator: legalName, website: realDomain, payee: fakeWallet.address })}`);
    expect(html).toMatch(/data-testid="check-overall" data-verdict="mismatch"/);
    expect(sentenceText(html)).toContain(`only for another account, calling itself “${legalName}” (name not verified)`);
  });

  it("/check: the real verified organisation gets match on every part; a misspelling gets close_match with the right name", async () => {
    const ok = await check({ operator: legalName.toUpperCase(), website: `www.${realDomain}`, payee: realWallet.address });
    expect(ok.overall).toBe("match");
    for (const p of Object.values(ok.parts) as any[]) expect(p).toMatchObject({ verdict: "match", on_record_for: legalName, name_verified: true });
    const typo = await check({ operator: legalName.replace("Trading", "Tradnig"), website: realDomain, payee: realWallet.address });
    expect(typo.parts.website).toMatchObject({ verdict: "close_match", on_record_for: legalName });
    expect(typo.parts.payee).toMatchObject({ verdict: "close_match", on_record_for: legalName });
    expect(typo.parts.operator).toMatchObject({ verdict: "close_match", on_record_for: legalName });
    const byLei = await check({ operator: lei, payee: realWallet.address });
    expect(byLei.parts.payee).toMatchObject({ verdict: "match", on_record_for: legalName, lei });
  });

  it("lookup: the imposter's domain and wallet are at most `checked`, never `verified`; the real ones are `verified`", async () => {
    for (const q of [lookAlike, fakeWallet.address]) {
      const r = await lookup(q);
      expect(r.result, q).toBe("checked");
      expect(r.matches[0].account).toMatchObject({ name: legalName, name_verified: false, organisation: null });
    }
    for (const q of [realDomain, realWallet.address]) {
      const r = await lookup(q);
      expect(r.result, q).toBe("verified");
      expect(r.matches[0].account).toMatchObject({ name: legalName, name_verified: true, organisation: { lei, status: "verified" } });
    }
  });

  it("signed status and certificate: the imposter speaks as an account calling itself the name, never as the organisation", async () => {
    for (const id of [fakeDomainId, fakeWallet.id, fakeCompanyId]) {
      const s = await status(id);
      expect(s.account).toMatchObject({ name: legalName, name_verified: false, organisation: null });
      const html = await page(`/r/${id}`);
      expect(sentenceText(html)).toContain(`An account calling itself “${legalName}”`);
      expect(html).toContain('data-testid="self-name"');
      expect(html).not.toContain("✓ Verified organisation");
      expect(html).toContain('data-speaker="self_declared"');
      // Never the green verdict tone beside an unverified name.
      expect(html).not.toMatch(/data-tone="verified"/);
    }
    const realPage = await page(`/r/${realCompanyId}`);
    expect(realPage).toContain("✓ Verified organisation");
    expect(realPage).toContain(lei);
    expect(realPage).toMatch(/data-tone="verified"/);
  });

  it("badge: the imposter's wallet record is green on no site; the real domain record only on the real host", async () => {
    const wallet = await status(fakeWallet.id);
    // One coverage rule (issue 38, item 13): it covers the look-alike its account proved — where the badge is amber, never
    // green, since the account's name is its own word — and never the real domain.
    expect(wallet.covers_hosts).toEqual([lookAlike, `www.${lookAlike}`]);
    expect(wallet.account).toMatchObject({ name: legalName, name_verified: false });
    const realWalletStatus = await status(realWallet.id);
    // A verified organisation's wallet record may be shown green on its confirmed domain only.
    expect(realWalletStatus.covers_hosts).toEqual([realDomain, `www.${realDomain}`]);
    const fake = await status(fakeDomainId);
    expect(fake.covers_hosts).toEqual([lookAlike, `www.${lookAlike}`]);
    expect(fake.covers_hosts).not.toContain(realDomain);
  });

  it("directory: the imposter's records are not shown as a verified organisation's", async () => {
    const html = await page(`/directory?${new URLSearchParams({ q: tag })}`);
    expect(sentenceText(html)).toContain(`an account calling itself “${legalName}” (name not verified)`);
    const rows = html.split('data-testid="directory-row"').slice(1).map((r) => r.slice(0, r.indexOf("</li>")));
    const imposterRows = rows.filter((r) => r.includes(fakeDomainId) || r.includes(fakeWallet.id) || r.includes(fakeCompanyId));
    expect(imposterRows.length).toBeGreaterThan(0);
    for (const row of imposterRows) {
      expect(row).not.toContain(`${legalName}, a verified organisation`);
      expect(row).not.toContain("✓");
      expect(row).not.toMatch(/data-tone="verified"/);
    }
    // The imposter calls itself by the real name: each of its records says it is not from the organisation (issue 38, item 12).
    for (const row of imposterRows) {
      expect(sentenceText(row)).toContain(`⚠ Not from ${legalName}: that name belongs to a verified organisation, and this record is from another account.`);
    }
    // The real organisation heads the search.
    expect(html.indexOf('data-testid="directory-organisations"')).toBeGreaterThan(-1);
    expect(html.indexOf('data-testid="directory-organisations"')).toBeLessThan(html.indexOf('data-testid="directory-row"'));
  });

  it("a listing whose operator was checked as the verified organisation stops standing the moment the organisation does", async () => {
    const listingUrl = `https://${realDomain}/stays/${tag}`;
    const listing = await call("POST", "/api/v1/records", {
      key: real.liveKey,
      body: {
        subject: `${legalName} — stay ${tag}`, claim_type: "verified_listing", claim: `${legalName} runs this listing.`, visibility: "public",
        evidence: {
          operator: legalName, listing_url: listingUrl, domain: realDomain,
          payee: { type: "wallet", value: realWallet.address, network: "ethereum" }, domain_record: realDomainId, payee_record: realWallet.id,
        },
      },
    });
    expect(listing.status, listing.text).toBe(201);
    expect((await lookup(listingUrl)).result).toBe("verified");
    expect((await status(listing.body.verification_id)).verified).toBe(true);
    // The imposter copying the listing gets no yes: a listing speaks only for its own verified organisation (422, nothing written), and the real one is not affected.
    const copy = await call("POST", "/api/v1/records", {
      key: imposter.liveKey,
      body: {
        subject: `${legalName} — stay ${tag}`, claim_type: "verified_listing", claim: `${legalName} runs this listing.`, visibility: "public",
        evidence: {
          operator: legalName, listing_url: listingUrl, domain: lookAlike, licence: { authority: "Tourism Board", number: `HUT-${tag}-999` },
          payee: { type: "wallet", value: fakeWallet.address, network: "ethereum" }, domain_record: fakeDomainId, payee_record: fakeWallet.id,
        },
      },
    });
    expect(copy.status, copy.text).toBe(422);
    expect(copy.body.error).toMatchObject({ code: "operator_not_own_organisation", param: "evidence.operator" });
    expect((await lookup(`HUT-${tag}-999`, "licence_number")).result).toBe("no_match");
    expect((await lookup(listingUrl)).matches.map((m: any) => m.verification_id)).toEqual([listing.body.verification_id]);

    await admin("organisation", "remove", "--account", real.accountId);
    const after = await status(listing.body.verification_id);
    expect(after.verified).toBe(false);
    expect(after.covers_hosts).toEqual([]);
    expect((await lookup(listingUrl)).result).toBe("no_match");
    expect((await check({ website: realDomain })).parts.website.verdict).not.toBe("match");
    // Verified again: the listing stands again.
    await admin("organisation", "verify", "--account", real.accountId, "--legal-name", legalName, "--lei", lei, "--jurisdiction", "GB", "--domains", realDomain);
    expect((await status(listing.body.verification_id)).verified).toBe(true);
    expect((await lookup(listingUrl)).result).toBe("verified");
  });
});
