import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyWithKeySet } from "../signatures";
import { dataLayerTest, onPostgres, testClaimType } from "./setup";
import { uniqueIban } from "../helpers";

/*
 * The values a lookup finds records by, with a claim type registered by this test that
 * declares values of every kind (as verified_listing will): written normalised with the
 * record, only for live public records, on approval from the evidence issued, by a batch,
 * and filled in for records that have none; and the answer's result by evidence level.
 * Also the PostgreSQL rate limiter's counter, here on the embedded database.
 */
const { db, liveCustomer, sandboxCustomer, reviewer, create: createPublic } = await dataLayerTest();
const { recordValues } = await import("@/drizzle/schema");
const { registerClaimType } = await import("@/lib/claims/registry");
const { createBatch } = await import("@/lib/records/create-batch");
const { decideSubmission } = await import("@/lib/reviews/decide-submission");
const { backfillRecordValues } = await import("@/lib/record-model/record-values");
const { setVerifiedOrganisation, afterOrganisationChange } = await import("@/lib/organisations/set-organisation");
const { answerLookup } = await import("@/lib/public/lookup/answer-lookup");
const { lookupRequestFrom } = await import("@/lib/public/lookup/lookup-query");
const { pgRateLimiter } = await import("@/lib/http/shared-rate-limiter");
const { publicJwks } = await import("@/lib/signing/keys");

const TYPE = "test_listed";
registerClaimType(testClaimType(TYPE, {
  async check(input) {
    const publicEvidence = input.evidence ?? {};
    return input.evidence?.review
      ? { kind: "review", evidenceLevel: "evidence_verified", reason: "A person looks.", publicEvidence }
      : { kind: "issue", evidenceLevel: "participant_attested", publicEvidence };
  },
  view: {
    lookupValues: (subject, e) => [
      { kind: "website", value: String(e.domain ?? ""), field: "evidence.domain" },
      { kind: "listing_url", value: String(e.listing_url ?? ""), field: "evidence.listing_url" },
      { kind: "iban", value: String(e.iban ?? ""), field: "evidence.payee.value" },
      { kind: "licence_number", value: String(e.licence ?? ""), field: "evidence.licence.number" },
      { kind: "social_handle", value: subject, field: "subject" },
      { kind: "social_handle", value: `@${subject}`, field: "subject" }, // the same value twice: stored once
    ],
  },
}));

const customer = async (env: "sandbox" | "live") =>
  (env === "live" ? await liveCustomer({ tag: "v" }) : await sandboxCustomer({ tag: "v", confirmed: true })).auth;
type Auth = Awaited<ReturnType<typeof customer>>;

const tag = () => randomBytes(3).toString("hex");
const evidenceFor = (t: string) => ({
  domain: `WWW.${t}-stays.example.com`, listing_url: `https://www.Rentals.example.com/stay/${t}/#photos`,
  iban: "gb82 west 1234 5698 7654 32", licence: `hut ${t} 9`,
});
const create = (auth: Auth, body: Record<string, unknown>) => createPublic(auth, { claim: "x", claim_type: TYPE, ...body });
const valuesOf = (id: string) =>
  db.select({ kind: recordValues.kind, value: recordValues.value, field: recordValues.field }).from(recordValues).where(eq(recordValues.recordId, id));
const ask = async (q: string, type?: string) =>
  JSON.parse(await answerLookup(db, lookupRequestFrom(new URL(`https://x.test/api/v1/lookup?${new URLSearchParams({ q, ...(type && { type }) })}`))));

async function verifies(body: Record<string, unknown>) {
  const { signature, ...payload } = body;
  return verifyWithKeySet(publicJwks(), payload, signature as string, body.signing_key_id as string);
}

describe("record values", () => {
  it("are written with a live public record, normalised, each once, with the field it is in", async () => {
    const t = tag();
    const r = await create(await customer("live"), { subject: `Acme_${t}`, evidence: evidenceFor(t) });
    expect(r.status).toBe(201);
    const rows = await valuesOf(r.body.verification_id);
    expect(rows.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "iban", value: "GB82WEST12345698765432", field: "evidence.payee.value" },
      { kind: "licence_number", value: `HUT${t.toUpperCase()}9`, field: "evidence.licence.number" },
      { kind: "listing_url", value: `https://rentals.example.com/stay/${t}`, field: "evidence.listing_url" },
      { kind: "social_handle", value: `acme_${t}`, field: "subject" },
      { kind: "website", value: `${t}-stays.example.com`, field: "evidence.domain" },
    ]);
  });

  it("a value that is not one of its kind is left out; sandbox and private records get none", async () => {
    const t = tag();
    const bad = await create(await customer("live"), { subject: "not a handle!", evidence: { ...evidenceFor(t), iban: "GB00 0000", domain: "localhost" } });
    expect((await valuesOf(bad.body.verification_id)).map((v) => v.kind).sort()).toEqual(["licence_number", "listing_url"]);
    const sandbox = await create(await customer("sandbox"), { subject: `Acme_${t}`, evidence: evidenceFor(t) });
    const priv = await create(await customer("live"), { subject: `Acme_${t}`, evidence: evidenceFor(t), visibility: "private" });
    expect(await valuesOf(sandbox.body.verification_id)).toEqual([]);
    expect(await valuesOf(priv.body.verification_id)).toEqual([]);
  });

  it("participant_attested matches answer attested; a reviewed one, once approved, checked — verified once the account is a verified organisation", async () => {
    const t = tag();
    const live = await customer("live");
    const attested = await create(live, { subject: `Acme_${t}`, evidence: evidenceFor(t) });
    const a = await ask(`https://${t}-stays.example.com/`);
    expect(a).toMatchObject({ type: "website", normalized: `${t}-stays.example.com`, result: "attested" });
    expect(a.matches).toEqual([expect.objectContaining({
      verification_id: attested.body.verification_id, evidence_level: "participant_attested", matched_field: "evidence.domain", status: "active",
    })]);
    expect(await verifies(a)).toBe(true);

    // Its own payee: an IBAN another account carries would make the submission high-risk (two reviewers).
    const sub = await create(live, { subject: `Acme_${t}`, evidence: { ...evidenceFor(t), iban: uniqueIban(), review: true } });
    expect(sub.status).toBe(202);
    expect((await ask(`${t}-stays.example.com`)).matches).toHaveLength(1); // pending: not found
    const checklist = ["source_opened", "subject_matches", "claim_supported", "checked_at_plausible"];
    await decideSubmission(db, await reviewer("r"), sub.body.verification_id, { decision: "approve", checklist });
    const c = await ask(`${t}-stays.example.com`);
    expect(c.result).toBe("checked");
    await db.transaction((tx) => setVerifiedOrganisation(tx, {
      accountId: live.accountId, legalName: `Acme ${t} Ltd`, lei: null, jurisdiction: null, basis: "documents", domains: [], verificationId: null, at: new Date(),
    }));
    afterOrganisationChange(live.accountId);
    const v = await ask(`${t}-stays.example.com`);
    expect(v.result).toBe("verified");
    expect(v.matches.map((m: { verification_id: string }) => m.verification_id)).toEqual([sub.body.verification_id, attested.body.verification_id]);
    expect(await verifies(v)).toBe(true);
  });

  it("a bare token answers under the kind that matched: here the handle", async () => {
    const t = tag();
    await create(await customer("live"), { subject: `acme_${t}`, evidence: evidenceFor(t) });
    expect(await ask(`ACME_${t}`)).toMatchObject({ type: "social_handle", normalized: `acme_${t}`, result: "attested" });
    expect(await ask(`ACME_${t}`, "licence_number")).toMatchObject({ type: "licence_number", result: "no_match" });
    expect(await ask(`hut ${t} 9`)).toMatchObject({ type: "licence_number", normalized: `HUT${t.toUpperCase()}9`, result: "attested" });
  });

  it("a batch writes each issued row's values", async () => {
    const [t1, t2] = [tag(), tag()];
    const live = await customer("live");
    const res = await createBatch(db, live, { records: [t1, t2].map((t) => ({ subject: `B_${t}`, claim: "x", claim_type: TYPE, visibility: "public", evidence: evidenceFor(t) })) }, randomUUID());
    const ids = JSON.parse(res.bodyJson).results.map((r: { verification_id: string }) => r.verification_id);
    for (const id of ids) expect(await valuesOf(id)).toHaveLength(5);
    expect((await ask(`b_${t2}`, "social_handle")).matches[0].verification_id).toBe(ids[1]);
  });

  it("records without values get them from the backfill, once", async () => {
    const t = tag();
    const r = await create(await customer("live"), { subject: `Old_${t}`, evidence: evidenceFor(t) });
    await db.delete(recordValues).where(eq(recordValues.recordId, r.body.verification_id));
    expect((await ask(`old_${t}`, "social_handle")).result).toBe("no_match");
    expect(await backfillRecordValues(db, 2)).toBeGreaterThanOrEqual(5);
    expect(await valuesOf(r.body.verification_id)).toHaveLength(5);
    expect((await ask(`old_${t}`, "social_handle")).result).toBe("attested");
    expect(await backfillRecordValues(db, 2)).toBe(0);
  });
});

describe("the PostgreSQL rate limiter (one atomic upsert)", () => {
  it("counts a fixed window per key, shared by every limiter on the database, and starts a new window when it has ended", async () => {
    const a = pgRateLimiter({ limit: 3, windowMs: 1000 }, async () => db);
    const b = pgRateLimiter({ limit: 3, windowMs: 1000 }, async () => db); // another process, as far as the counter knows
    const key = `test:${tag()}`;
    const hits = [await a.hit(key), await b.hit(key), await a.hit(key), await b.hit(key)];
    expect(hits.map((h) => [h.ok, h.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(hits[3]!.retryAfterSeconds).toBe(1);
    expect((await a.hit(`test:${tag()}`)).ok).toBe(true); // another key
    await new Promise((r) => setTimeout(r, 1100)); // time under test: the 1 s window ending
    expect(await a.hit(key)).toMatchObject({ ok: true, remaining: 2 });
  });

  // PostgreSQL only: PGlite's one connection runs the upserts one after another, which the
  // test above already counts hit by hit.
  it.runIf(onPostgres)("counts concurrent hits each once", async () => {
    const b = pgRateLimiter({ limit: 3, windowMs: 1000 }, async () => db);
    const key = `test:${tag()}:burst`;
    const burst = await Promise.all(Array.from({ length: 10 }, () => b.hit(key)));
    expect(burst.filter((h) => h.ok)).toHaveLength(3);
    expect(burst.map((h) => h.remaining).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
  });
});
