import { randomBytes } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, inject, it } from "vitest";
import { setDns } from "../helpers";
import { dataLayerTest, uniqueEmail } from "./setup";

/*
 * verified_listing with a reviewer in the loop (CONTRACT "What a public yes requires" →
 * verified_listing; "What was checked"): a licence rests only on a reviewer-confirmed licence
 * record with the same authority and number; a listing with an unchecked part issues only
 * once a reviewer approves it, at evidence_verified, every check the reviewer's.
 */
const { db, reviewer: newReviewer, create } = await dataLayerTest({ env: { DNS_SERVERS: inject("serverEnv").DNS_SERVERS! } });
const { createAccount } = await import("@/lib/accounts/create-account");
const { createApiKey } = await import("@/lib/accounts/create-api-key");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { createDomainChallenge, createWalletChallenge } = await import("@/lib/challenges/challenges");
const { setVerifiedOrganisation, afterOrganisationChange } = await import("@/lib/organisations/set-organisation");
const { decideSubmission } = await import("@/lib/reviews/decide-submission");
const { checklistFor } = await import("@/lib/reviews/checklists");
const { changeLifecycle } = await import("@/lib/records/change-lifecycle");
const { records } = await import("@/drizzle/schema");
const { eq, sql } = await import("drizzle-orm");

type Auth = Awaited<ReturnType<typeof authenticateApiKey>>;
const reviewer = await newReviewer();

/** A live account that is the verified organisation `legalName` (as staff record it). */
async function organisation(legalName: string) {
  const a = await createAccount(db, { email: uniqueEmail("org"), plan: "growth", emailConfirmed: true });
  await db.transaction((tx) => setVerifiedOrganisation(tx, {
    accountId: a.accountId, legalName, lei: null, jurisdiction: null, basis: "documents", domains: [], verificationId: null, at: new Date(),
  }));
  afterOrganisationChange(a.accountId);
  return authenticateApiKey(db, `Bearer ${(await createApiKey(db, a.accountId, "live")).key}`);
}

async function domainRecord(auth: Auth) {
  const domain = `seaview-${randomBytes(4).toString("hex")}.example.com`;
  const ch = await createDomainChallenge(db, auth, { domain });
  setDns(ch.txt_name, [ch.txt_value]);
  const r = await create(auth, { subject: domain, claim_type: "domain_ownership", claim: `Controls ${domain}.`, evidence: { challenge_id: ch.id } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { domain, id: r.body.verification_id as string };
}

async function walletRecord(auth: Auth) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const ch = await createWalletChallenge(db, auth, { address: acct.address, network: "ethereum" });
  const signature = await acct.signMessage({ message: ch.message });
  const r = await create(auth, { subject: acct.address, claim_type: "wallet_ownership", claim: "Controls the wallet.", evidence: { challenge_id: ch.id, signature } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { address: acct.address, id: r.body.verification_id as string };
}

const approve = (id: string, claimType: string, evidence: Record<string, unknown> = {}) =>
  decideSubmission(db, reviewer, id, { decision: "approve", checklist: checklistFor(claimType, evidence).map((i) => i.key) });

const LICENCE = { authority: "Malta Tourism Authority", number: "HPI/1234" };

describe("verified_listing and reviewers", () => {
  it("a licence rests on a reviewer-confirmed licence record with the same authority and number (201); another number is refused", async () => {
    const auth = await organisation("Seaview Apartments");
    const d = await domainRecord(auth);
    const w = await walletRecord(auth);
    const lic = await create(auth, {
      subject: "Seaview Apartments", claim_type: "tourism_licence", claim: "Seaview Apartments holds licence HPI/1234.",
      source_name: "Malta Tourism Authority register", source_url: "https://mta.example.gov/licences/HPI-1234", checked_at: new Date().toISOString(),
      evidence: { licence: LICENCE, note: "kept for the reviewer" },
    });
    expect(lic.status).toBe(202);
    const licId = lic.body.verification_id as string;
    const issued = await approve(licId, "tourism_licence");
    expect(issued).toMatchObject({ evidence_level: "evidence_verified", evidence: { licence: LICENCE } });
    expect(JSON.stringify(issued)).not.toContain("kept for the reviewer");

    const base = {
      subject: "Seaview Apartments", claim_type: "verified_listing", claim: "Seaview Apartments runs listing 4471.",
      evidence: {
        operator: "Seaview Apartments", listing_url: `https://www.${d.domain}/listing/4471`, domain: d.domain, domain_record: d.id,
        payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id,
        licence: { authority: "malta tourism authority", number: "hpi/1234" }, licence_record: licId,
      },
    };
    const listing = await create(auth, base);
    expect(listing.status, JSON.stringify(listing.body)).toBe(201);
    expect(listing.body).toMatchObject({ evidence_level: "source_verified", verified: true });
    expect(listing.body.checks.map((c: { fact: string; by: string; source?: string }) => [c.fact, c.by, c.source])).toEqual([
      ["operator", "source", "the account's organisation verification (Seaview Apartments)"],
      ["listing_link", "source", `domain_ownership record ${d.id}`],
      ["domain", "source", `domain_ownership record ${d.id}`],
      ["payee", "source", `wallet_ownership record ${w.id}`],
      ["licence", "source", `licence record ${licId}`],
    ]);

    const other = await create(auth, { ...base, evidence: { ...base.evidence, licence: { ...LICENCE, number: "HPI/9999" } } }).catch((e) => e);
    expect(other).toMatchObject({ code: "linked_record_invalid", param: "evidence.licence_record" });
  });

  it("a listing with an unchecked part waits; the reviewer's approval issues it at evidence_verified, every check the reviewer's", async () => {
    const auth = await organisation("Harbour Lofts Ltd");
    const d = await domainRecord(auth);
    const w = await walletRecord(auth);
    const sub = await create(auth, {
      subject: "Harbour Lofts", claim_type: "verified_listing", claim: "Harbour Lofts Ltd runs listing 12.",
      evidence: {
        operator: "Harbour Lofts Ltd", listing_url: "https://rentals.example/listing/12", domain: d.domain, domain_record: d.id,
        payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id,
      },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(202);
    expect(sub.body.review).toMatchObject({ evidence_level: "evidence_verified" });
    expect(sub.body.review.reason).toMatch(/^Not checked: listing_link\./);
    expect(sub.body.review.reason).toContain(`its host is not the proved domain ${d.domain}`);
    const rec = await approve(sub.body.verification_id, "verified_listing", sub.body.evidence);
    expect(rec).toMatchObject({ status: "active", evidence_level: "evidence_verified" });
    expect(rec.checks.map((c: { fact: string; by: string; source?: string }) => [c.fact, c.by, c.source])).toEqual([
      ["operator", "reviewer", "the account's organisation verification (Harbour Lofts Ltd)"],
      ["listing_link", "reviewer", undefined],
      ["domain", "reviewer", `domain_ownership record ${d.id}`],
      ["payee", "reviewer", `wallet_ownership record ${w.id}`],
    ]);
  });

  it("a listing whose part lapsed while it waited is not approved resting on it; once the part stands again it is", async () => {
    const auth = await organisation("Quay Studios Ltd");
    const d = await domainRecord(auth);
    const w = await walletRecord(auth);
    const sub = await create(auth, {
      subject: "Quay Studios", claim_type: "verified_listing", claim: "Quay Studios Ltd runs listing 7.",
      evidence: {
        operator: "Quay Studios Ltd", listing_url: "https://rentals.example/listing/7", domain: d.domain, domain_record: d.id,
        payee: { type: "wallet", value: w.address, network: "ethereum" }, payee_record: w.id,
      },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(202);
    await changeLifecycle(db, auth, d.id, { operation: "suspend", reason: "Moving DNS providers." });
    await expect(approve(sub.body.verification_id, "verified_listing", sub.body.evidence)).rejects.toMatchObject({
      code: "review_precondition_failed", message: expect.stringContaining(`Part domain_record ${d.id} is no longer active (suspended).`),
    });
    await changeLifecycle(db, auth, d.id, { operation: "reinstate", reason: "DNS moved." });
    expect(await approve(sub.body.verification_id, "verified_listing", sub.body.evidence)).toMatchObject({ status: "active" });
  });

  it("no reviewer confirms a listing's operator: a submission from before the rule that lists it for review cannot be approved", async () => {
    const auth = await organisation("Pier Rooms Ltd");
    const d = await domainRecord(auth);
    const sub = await create(auth, {
      subject: "Pier Rooms", claim_type: "verified_listing", claim: "Pier Rooms Ltd runs listing 3.",
      evidence: {
        operator: "Pier Rooms Ltd", listing_url: `https://${d.domain}/listing/3`, domain: d.domain, domain_record: d.id,
        payee: { type: "iban", value: "DE89370400440532013000", account_name: "Pier Rooms Ltd" },
      },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(202);
    expect(sub.body.evidence.reviewed_parts).toEqual(["payee"]);
    // As a submission made before the operator rule was stored: the operator among the parts a reviewer was to confirm.
    const id = sub.body.verification_id as string;
    await db.update(records).set({ evidencePublic: sql`jsonb_set(${records.evidencePublic}, '{reviewed_parts}', '["operator", "payee"]'::jsonb)` }).where(eq(records.id, id));
    const [row] = await db.select().from(records).where(eq(records.id, id));
    await expect(approve(id, "verified_listing", row!.evidencePublic)).rejects.toMatchObject({
      code: "review_precondition_failed", message: expect.stringContaining("A reviewer cannot confirm a listing's operator"),
    });
    expect((await db.select().from(records).where(eq(records.id, id)))[0]!.status).toBe("pending_review");
  });
});
