import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, inject, it } from "vitest";
import { admin, call, newAccount, newLiveAccount, setDns } from "../helpers";
import { randomLei, setLeiRecord } from "../lei-register";
import { nextIp } from "../portal-client";
import { verifyWithJwks } from "../signatures";

/**
 * The public check (CONTRACT "Public check"): per part given, on record for this operator,
 * on record for ANOTHER operator (named), or not on record — from live, public, active records
 * only; a signed JSON answer and a page that works without JavaScript.
 */
async function provedDomain(key: string, visibility = "public") {
  const domain = `check-${randomUUID().slice(0, 8)}.example.com`;
  const c = (await call("POST", "/api/v1/domain-challenges", { key, body: { domain } })).body;
  setDns(c.txt_name, [c.txt_value]);
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, visibility, evidence: { challenge_id: c.id } },
  });
  expect(r.status, r.text).toBe(201);
  return { domain, id: r.body.verification_id as string };
}

async function provedWallet(key: string) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const c = (await call("POST", "/api/v1/wallet-challenges", { key, body: { address: acct.address, network: "ethereum" } })).body;
  const r = await call("POST", "/api/v1/records", {
    key, body: { subject: acct.address, claim_type: "wallet_ownership", claim: "Wallet.", visibility: "public", evidence: { challenge_id: c.id, signature: await acct.signMessage({ message: c.message }) } },
  });
  expect(r.status, r.text).toBe(201);
  return { address: acct.address, id: r.body.verification_id as string };
}

/** An account that only calls itself `name` (PATCH /api/v1/account): a self-declared name. */
async function operatorNamed(name: string) {
  const live = await newLiveAccount();
  expect((await call("PATCH", "/api/v1/account", { key: live.liveKey, body: { name } })).status).toBe(200);
  return live;
}

/** An account a reviewer verified as the organisation `name` (staff record it with the operator CLI). */
async function verifiedOperator(name: string, lei?: string) {
  const live = await newLiveAccount();
  await admin("organisation", "verify", "--account", live.accountId, "--legal-name", name, ...(lei ? ["--lei", lei] : []));
  return live;
}

/**
 * A verified organisation with an LEI in the register stand-in, as a real one's is: the sweep
 * re-checks it (daily, or when asked), and an LEI the register does not know lapses it.
 */
async function verifiedWithLei(name: string) {
  const lei = randomLei();
  setLeiRecord(inject("leiRegister").recordsFile, lei, { legalName: name, jurisdiction: "GB", registrationStatus: "ISSUED", entityStatus: "ACTIVE" });
  return { ...(await verifiedOperator(name, lei)), lei };
}

/** Each check from a client address of its own: the lookup allowance (30 a minute per address) is shared with every other file's. */
async function check(params: Record<string, string>) {
  const r = await call("GET", `/api/v1/check?${new URLSearchParams(params)}`, { headers: { "x-forwarded-for": nextIp() } });
  expect(r.status, r.text).toBe(200);
  const { signature, ...signed } = r.body;
  expect(await verifyWithJwks(signed, signature, signed.signing_key_id)).toBe(true);
  return signed;
}

describe("the public check", () => {
  it("says match, mismatch (naming the other operator) or not on record, per part, for a verified organisation", async () => {
    const name = `Seaview ${randomUUID().slice(0, 6)} Apartments`;
    const op = await verifiedOperator(name);
    const d = await provedDomain(op.liveKey);
    const w = await provedWallet(op.liveKey);
    const ok = await check({ operator: name.toLowerCase(), website: `https://www.${d.domain.toUpperCase()}/booking`, payee: w.address.toLowerCase() });
    expect(ok.parts.website).toMatchObject({ verdict: "match", on_record_for: name, name_verified: true, evidence_level: "source_verified", verification_id: d.id });
    expect(ok.parts.payee).toMatchObject({ verdict: "match", on_record_for: name, name_verified: true, verification_id: w.id });
    expect(ok.parts.operator).toMatchObject({ verdict: "match", on_record_for: name, name_verified: true });
    expect(ok.overall).toBe("match");
    const page0 = await call("GET", `/check?${new URLSearchParams({ operator: name, website: d.domain })}`);
    expect(page0.text).toContain("a verified organisation");
    expect(page0.text).toMatch(/data-testid="check-overall" data-verdict="match"/);

    const scam = await check({ operator: "Totally Different Holidays", website: d.domain, payee: w.address });
    expect(scam.parts.website).toMatchObject({ verdict: "mismatch", on_record_for: name });
    expect(scam.parts.payee).toMatchObject({ verdict: "mismatch", on_record_for: name });
    expect(scam.overall).toBe("mismatch");
    const page = await call("GET", `/check?${new URLSearchParams({ operator: "Totally Different Holidays", website: d.domain })}`);
    expect(page.text).toContain("on record for a DIFFERENT operator");
    expect(page.text).toContain(name);

    const none = await check({ website: `nobody-${randomUUID().slice(0, 6)}.example.org`, payee: "DE89 3704 0044 0532 0130 00" });
    expect(none.parts.website).toMatchObject({ verdict: "not_on_record", verification_id: null });
    expect(none.parts.payee).toMatchObject({ verdict: "not_on_record", normalized: "DE89370400440532013000" });
  });

  it("a slightly misspelt operator gets close_match with the name on record; an operator given as its LEI matches", async () => {
    const tag = randomUUID().slice(0, 6);
    const name = `Harbourview ${tag} Holidays Limited`;
    const op = await verifiedWithLei(name);
    const { lei } = op;
    const d = await provedDomain(op.liveKey);
    const typo = await check({ operator: `Harbourveiw ${tag} Holidays Limited`, website: d.domain });
    expect(typo.parts.website).toMatchObject({ verdict: "close_match", on_record_for: name, name_verified: true });
    expect(typo.parts.operator).toMatchObject({ verdict: "close_match", on_record_for: name });
    expect(typo.overall).toBe("close_match");
    const page = await call("GET", `/check?${new URLSearchParams({ operator: `Harbourveiw ${tag} Holidays Limited`, website: d.domain })}`);
    expect(page.text).toContain(`Did you mean ${name}?`);
    const byLei = await check({ operator: lei.toLowerCase(), website: d.domain });
    expect(byLei.parts.website).toMatchObject({ verdict: "match", on_record_for: name, lei });
    expect(byLei.parts.operator).toMatchObject({ verdict: "match", on_record_for: name, lei });
    // A clearly different name is no close match.
    expect((await check({ operator: "Mountain Cabins Limited", website: d.domain })).parts.website.verdict).toBe("mismatch");
  });

  it("an account that only names itself is amber, never match — and a legitimate unnamed operator is not called a different one", async () => {
    const name = `Selfnamed ${randomUUID().slice(0, 6)} Ltd`;
    const op = await operatorNamed(name);
    const d = await provedDomain(op.liveKey);
    const w = await provedWallet(op.liveKey);
    const r = await check({ operator: name, website: d.domain, payee: w.address });
    expect(r.parts.website).toMatchObject({ verdict: "unverified_operator", on_record_for: name, name_verified: false });
    expect(r.parts.payee).toMatchObject({ verdict: "unverified_operator", on_record_for: name, name_verified: false });
    expect(r.parts.operator.verdict).toBe("not_on_record");
    expect(r.overall).toBe("not_on_record");
    const page = await call("GET", `/check?${new URLSearchParams({ website: d.domain })}`);
    expect(page.text).toContain("that name was not verified by anyone");
    expect(page.text).not.toContain("DIFFERENT operator");
    const unnamed = await newLiveAccount();
    const u = await provedDomain(unnamed.liveKey);
    const other = await check({ operator: "Some Real Operator Ltd", website: u.domain });
    expect(other.parts.website).toMatchObject({ verdict: "unverified_operator", on_record_for: null });
  });

  it("never merges two organisations into one match: parts on record for different verified organisations are mismatch, naming each", async () => {
    // The attacker's steps: the website of verified organisation A, the payee of verified organisation B, the operator left empty.
    const nameA = `Harbour ${randomUUID().slice(0, 6)} Lettings`;
    const nameB = `Inland ${randomUUID().slice(0, 6)} Payments`;
    const a = await verifiedOperator(nameA);
    const b = await verifiedOperator(nameB);
    const site = await provedDomain(a.liveKey);
    const wallet = await provedWallet(b.liveKey);
    const mixed = await check({ website: site.domain, payee: wallet.address });
    expect(mixed.parts.website).toMatchObject({ verdict: "match", on_record_for: nameA });
    expect(mixed.parts.payee).toMatchObject({ verdict: "match", on_record_for: nameB });
    expect(mixed.overall).toBe("mismatch");
    expect(mixed.summary).toContain(`the website is on record for ${nameA}`);
    expect(mixed.summary).toContain(`the payee is on record for ${nameB}`);
    expect(mixed.summary).not.toMatch(/everything you entered/i);
    const page = await call("GET", `/check?${new URLSearchParams({ website: site.domain, payee: wallet.address })}`, { headers: { "x-forwarded-for": nextIp() } });
    expect(page.text).toMatch(/data-testid="check-overall" data-verdict="mismatch"/);
    expect(page.text).not.toMatch(/Everything you entered/);
    // Both parts of one organisation, operator empty: match, and the sentence names it rather than "everything you entered".
    const own = await provedWallet(a.liveKey);
    const one = await check({ website: site.domain, payee: own.address });
    expect(one.overall).toBe("match");
    expect(one.summary).toBe(`The website and the payee are on record for ${nameA}, a verified organisation, and still stand. Make sure ${nameA} is who you mean to pay.`);
    // With the operator given, too.
    const named = await check({ operator: nameA, website: site.domain, payee: own.address });
    expect(named.overall).toBe("match");
    expect(named.parts.operator).toMatchObject({ verdict: "match", shared_name: false });
    expect(named.summary).toBe(`Everything you entered is on record for ${nameA}, a verified organisation, and still stands.`);
  });

  it("names are not identities: a bare name two verified organisations hold is close_match at best and asks for the LEI; the LEI tells them apart", async () => {
    // The attacker's steps: get verified under a real organisation's legal name (another jurisdiction, or documents
    // without an LEI), prove a payee, and hope a payer asks /check with the name alone.
    const tag = randomUUID().slice(0, 6);
    const name = `Quayside ${tag} Rentals Limited`;
    const real = await verifiedWithLei(name);
    const { lei } = real;
    const site = await provedDomain(real.liveKey);
    const realWallet = await provedWallet(real.liveKey);
    const twin = await verifiedOperator(name.toUpperCase());
    const twinWallet = await provedWallet(twin.liveKey);

    const bare = await check({ operator: name });
    expect(bare.parts.operator).toMatchObject({ verdict: "close_match", name_verified: true, shared_name: true, lei: null, verification_id: null });
    expect(bare.overall).toBe("close_match");
    expect(bare.summary).toBe(`More than one verified organisation is called ${bare.parts.operator.on_record_for}. Give its LEI or its website to tell which one you mean.`);
    // The twin's payee under the bare name: never match, and the sentence says the name is shared.
    const twinPay = await check({ operator: name, payee: twinWallet.address });
    expect(twinPay.parts.payee).toMatchObject({ verdict: "close_match", shared_name: true, on_record_for: name.toUpperCase() });
    expect(twinPay.overall).toBe("close_match");
    expect(twinPay.summary).toMatch(/^More than one verified organisation is called .*; the payee is on record for one of them\. Check its LEI/);
    const page = await call("GET", `/check?${new URLSearchParams({ operator: name, payee: twinWallet.address })}`, { headers: { "x-forwarded-for": nextIp() } });
    expect(page.text).toMatch(/data-testid="check-overall" data-verdict="close_match"/);
    expect(page.text).toContain("More than one organisation has this name");
    expect(/data-verdict="match"/.test(page.text), "no part of the page is green").toBe(false);
    // Website of one, payee of the other, bare name: two organisations, mismatch.
    const mixed = await check({ operator: name, website: site.domain, payee: twinWallet.address });
    expect(mixed.overall).toBe("mismatch");
    // The LEI names exactly one: the real organisation's parts match, the twin's payee is a different operator.
    const byLei = await check({ operator: lei, website: site.domain, payee: realWallet.address });
    expect(byLei.parts.operator).toMatchObject({ verdict: "match", lei, shared_name: false });
    expect(byLei.overall).toBe("match");
    const twinByLei = await check({ operator: lei, payee: twinWallet.address });
    expect(twinByLei.parts.payee.verdict).toBe("mismatch");
    expect(twinByLei.overall).toBe("mismatch");
  });

  it("a verified organisation's name borrowed by another account: mismatch, one colour, never amber beside a green match", async () => {
    // The attacker's steps: copy a verified organisation's exact legal name onto a new account, prove a look-alike website
    // and a wallet, and send payers to /check with the real name.
    const name = `Harbourside ${randomUUID().slice(0, 6)} Stays Ltd`;
    const real = await verifiedOperator(name);
    const realSite = await provedDomain(real.liveKey);
    const copy = await operatorNamed(name);
    const fakeSite = await provedDomain(copy.liveKey);
    const fakeWallet = await provedWallet(copy.liveKey);
    const r = await check({ operator: name, website: fakeSite.domain, payee: fakeWallet.address });
    expect(r.parts.operator).toMatchObject({ verdict: "match", on_record_for: name, name_verified: true });
    expect(r.parts.website).toMatchObject({ verdict: "mismatch", on_record_for: name, name_verified: false, verification_id: fakeSite.id });
    expect(r.parts.payee).toMatchObject({ verdict: "mismatch", name_verified: false });
    expect(r.overall).toBe("mismatch");
    expect(r.summary).toBe(`Stop: the website and the payee are not on record for ${name}, a verified organisation — only for another account, whose name nobody verified. Do not pay until you have checked.`);
    const page = await call("GET", `/check?${new URLSearchParams({ operator: name, website: fakeSite.domain })}`, { headers: { "x-forwarded-for": nextIp() } });
    expect(page.text).toMatch(/data-testid="check-overall" data-verdict="mismatch"/);
    expect(page.text).toMatch(/data-testid="verdict-website" data-verdict="mismatch"/);
    expect(/data-verdict="unverified_operator"/.test(page.text), "no amber part beside the operator's green").toBe(false);
    expect(page.text).toContain("only for another account");
    // The self-declared name is shown as data, in an element of its own.
    expect(page.text).toMatch(new RegExp(`<bdi [^>]*data-testid="self-name"[^>]*>${name}</bdi>`));
    // The real organisation's own website still matches.
    expect((await check({ operator: name, website: realSite.domain })).overall).toBe("match");
    // Without an operator asked, the copy is what it always was: amber, its name its own word.
    expect((await check({ website: fakeSite.domain })).parts.website).toMatchObject({ verdict: "unverified_operator", name_verified: false });
  });

  it("counts only live, public, active records", async () => {
    const name = `Private ${randomUUID().slice(0, 6)} Ltd`;
    const op = await operatorNamed(name);
    const priv = await provedDomain(op.liveKey, "private");
    const revoked = await provedDomain(op.liveKey);
    // The positive control: the same operator's live, public, active record is found — for this
    // self-named account that is unverified_operator, naming it and the record (never not_on_record).
    const shown = await provedDomain(op.liveKey);
    const control = await check({ operator: name, website: shown.domain });
    expect(control.parts.website).toMatchObject({ verdict: "unverified_operator", on_record_for: name, name_verified: false, verification_id: shown.id });
    // The record about to be revoked is found the same way while it stands …
    expect((await check({ operator: name, website: revoked.domain })).parts.website).toMatchObject({ verdict: "unverified_operator", verification_id: revoked.id });
    const rev = await call("POST", `/api/v1/records/${revoked.id}/lifecycle`, { key: op.liveKey, body: { operation: "revoke", reason: "Sold." } });
    expect(rev.status, rev.text).toBe(200);
    const sandbox = await newAccount("check");
    const sbx = await provedDomain(sandbox.sandboxKey);
    // … and not once revoked; nor is a private record, nor a sandbox one.
    for (const domain of [priv.domain, revoked.domain, sbx.domain]) {
      expect((await check({ operator: name, website: domain })).parts.website.verdict, domain).toBe("not_on_record");
    }
    // A verified organisation's live, public, active record is a match; its sandbox twin is not on record.
    const orgName = `Counted ${randomUUID().slice(0, 6)} Ltd`;
    const org = await verifiedOperator(orgName);
    const live = await provedDomain(org.liveKey);
    expect((await check({ operator: orgName, website: live.domain })).parts.website).toMatchObject({ verdict: "match", on_record_for: orgName, verification_id: live.id });
    const twin = await provedDomain(org.sandboxKey);
    expect((await check({ operator: orgName, website: twin.domain })).parts.website).toMatchObject({ verdict: "not_on_record", verification_id: null });
  });

  it("refuses a question it cannot answer", async () => {
    expect((await call("GET", "/api/v1/check")).body.error).toMatchObject({ code: "missing_field" });
    expect((await call("GET", "/api/v1/check?website=a.com&colour=blue")).body.error).toMatchObject({ code: "unknown_field" });
    expect((await call("GET", "/api/v1/check?website=a.com&website=b.com")).body.error).toMatchObject({ code: "invalid_format" });
    expect((await call("GET", `/api/v1/check?operator=${"x".repeat(501)}`)).body.error).toMatchObject({ code: "too_long" });
    expect((await call("GET", "/check?operator=%E2%80%AEgnp")).status).toBe(200);
  });
});

describe("the home box", () => {
  it("sends a company's name or an LEI (with or without spaces) to the full check's operator", async () => {
    const lei = randomLei();
    const spaced = lei.match(/.{1,4}/g)!.join(" ");
    for (const [typed, operator] of [[spaced, lei], ["Seaview  Holiday Homes Ltd", "Seaview Holiday Homes Ltd"]] as const) {
      const r = await fetch(`${inject("baseUrl")}/?${new URLSearchParams({ q: typed })}`, { redirect: "manual", headers: { "x-forwarded-for": nextIp() } });
      expect(r.status, typed).toBe(307);
      expect(new URL(r.headers.get("location")!, inject("baseUrl")).search).toBe(`?${new URLSearchParams({ operator })}`);
    }
  });
});
