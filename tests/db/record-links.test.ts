import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { untilPast } from "../helpers";
import { verifyWithKeySet } from "../signatures";
import { dataLayerTest, testClaimType, linksToBase } from "./setup";

/*
 * The record-link and public-view plumbing every linking claim type will use (agent →
 * company, listing → its parts), proved with a claim type registered by this test only:
 * no shipped type links records yet. It declares links, public fields, a validity and a
 * review precondition, exactly as a type under lib/claims/ would.
 */
const { db, sandboxCustomer, liveCustomer, reviewer: newReviewer, create: createPublic } = await dataLayerTest({ env: { MIN_VALIDITY_SECONDS: "1" } });
const { recordLinks, records } = await import("@/drizzle/schema");
const { registerClaimType } = await import("@/lib/claims/registry");
const { createBatch } = await import("@/lib/records/create-batch");
const { changeLifecycle } = await import("@/lib/records/change-lifecycle");
const { getSignedStatus } = await import("@/lib/public/record/signed-status");
const { getPublicView, loadPublicView } = await import("@/lib/public/record/public-view");
const { serializeRecord } = await import("@/lib/public/record/serialize-record");
const { decideSubmission } = await import("@/lib/reviews/decide-submission");
const { publicJwks } = await import("@/lib/signing/keys");
const { ApiError } = await import("@/lib/http/errors");

const TYPE = "test_rests_on";
registerClaimType(testClaimType(TYPE, {
  request: { links: linksToBase },
  async check(input, ctx) {
    const base = ctx.linked.get("base_record");
    if (!base || base.environment !== ctx.auth.environment || base.status !== "active") {
      return { kind: "fail", error: { code: "invalid_value", param: "evidence.base", message: "No active record of this account and environment." } };
    }
    const publicEvidence = { base: base.id };
    return input.evidence?.review
      ? { kind: "review", evidenceLevel: "evidence_verified", reason: "A person looks.", publicEvidence }
      : { kind: "issue", evidenceLevel: "participant_attested", publicEvidence };
  },
  review: {
    beforeApprove: (s, now) => (now.getTime() - s.createdAt.getTime() > 50 ? "The evidence is older than 50 ms." : null),
  },
  view: {
    publicFields: ({ links }) => ({
      base: { standing: links[0]?.standing ?? "unlinked", record: links[0]?.record ?? null },
    }),
  },
  policy: {
    recheck: { kind: "renewal", validityDays: 30 },
  },
}));

const customer = () => sandboxCustomer({ tag: "l", confirmed: true });
type Auth = Awaited<ReturnType<typeof customer>>["auth"];
const create = (auth: Auth, body: Record<string, unknown>) => createPublic(auth, { claim: "x", ...body });
const base = (auth: Auth, visibility = "public") =>
  create(auth, { subject: "Base Ltd", claim_type: "company_status", visibility }).then((r) => r.body.verification_id as string);

async function verifies(body: Record<string, unknown>) {
  const { status_signature, ...payload } = body;
  return verifyWithKeySet(publicJwks(), payload, status_signature as string, body.signing_key_id as string);
}

const linksOf = (id: string) => db.select().from(recordLinks).where(eq(recordLinks.recordId, id));

describe("record links and the one public view", () => {
  it("a link is written with the record; status, record object and view agree on the target's standing", async () => {
    const c = await liveCustomer({ tag: "l" }); // live: sandbox records are always private, so only live ones can be named in public
    const target = await base(c.auth);
    const r = await create(c.auth, { subject: "Dependent", claim_type: TYPE, evidence: { base: target } });
    expect(r.status).toBe(201);
    expect(await linksOf(r.body.verification_id)).toEqual([{ recordId: r.body.verification_id, role: "base_record", targetId: target }]);
    expect(r.body.links).toEqual([{ role: "base_record", verification_id: target, status: "active", standing: "active" }]);
    expect(r.body.base).toMatchObject({ standing: "active", record: { verification_id: target, subject: "Base Ltd" } });

    const signed = JSON.parse((await getSignedStatus(db, r.body.verification_id))!.body);
    expect(await verifies(signed)).toBe(true);
    expect(signed.base).toEqual(r.body.base);
    const view = (await getPublicView(db, r.body.verification_id))!;
    expect((serializeRecord(view) as Record<string, unknown>).base).toEqual(signed.base);
  });

  it("a change of the linked record clears the dependent's cached signed status at once", async () => {
    const c = await customer();
    const target = await base(c.auth);
    const dep = (await create(c.auth, { subject: "Dependent", claim_type: TYPE, evidence: { base: target } })).body.verification_id;
    const first = (await getSignedStatus(db, dep))!.body;
    expect((await getSignedStatus(db, dep))!.body).toBe(first); // served from the cache
    expect(JSON.parse(first).base.standing).toBe("active");

    await changeLifecycle(db, c.auth, target, { operation: "suspend", reason: "Checking something." });
    const after = JSON.parse((await getSignedStatus(db, dep))!.body);
    expect(after.base.standing).toBe("lapsed");
    expect(after.status).toBe("active"); // the dependent's own status is its own
    expect(await verifies(after)).toBe(true);
    const owner = serializeRecord(await loadPublicView(db, (await db.select().from(records).where(eq(records.id, dep)))[0]!));
    expect(owner.links).toEqual([{ role: "base_record", verification_id: target, status: "suspended", standing: "lapsed" }]);
  });

  it("a private target is never named in public, only its standing", async () => {
    const c = await customer();
    const target = await base(c.auth, "private");
    const dep = (await create(c.auth, { subject: "Dependent", claim_type: TYPE, evidence: { base: target } })).body.verification_id;
    const signed = JSON.parse((await getSignedStatus(db, dep))!.body);
    expect(signed.base).toEqual({ standing: "active", record: null });
    expect(JSON.stringify(signed)).not.toContain(target);
  });

  it("another account's record is not found by the link; a failed check and a failed batch row write no link", async () => {
    const mine = await customer();
    const theirs = await customer();
    const foreign = await base(theirs.auth);
    const err = await create(mine.auth, { subject: "Dependent", claim_type: TYPE, evidence: { base: foreign } }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe("invalid_value");
    expect(await db.select().from(recordLinks).where(eq(recordLinks.targetId, foreign))).toEqual([]);

    const target = await base(mine.auth);
    const batch = await createBatch(db, mine.auth, {
      records: [
        { subject: "A", claim_type: TYPE, claim: "x", evidence: { base: target } },
        { subject: "B", claim_type: TYPE, claim: "x", evidence: { base: foreign } },
      ],
    }, randomUUID());
    const answer = JSON.parse(batch.bodyJson);
    expect(answer.results.map((x: { outcome: string }) => x.outcome)).toEqual(["issued", "failed"]);
    const linked = await db.select().from(recordLinks).where(eq(recordLinks.targetId, target));
    expect(linked.map((l) => l.recordId)).toEqual([answer.results[0].verification_id]);
  });

  it("the type's validity is its default and its limit", async () => {
    const c = await customer();
    const target = await base(c.auth);
    const r = await create(c.auth, { subject: "Dependent", claim_type: TYPE, evidence: { base: target } });
    const days = (Date.parse(r.body.lifecycle.expires_at) - Date.parse(r.body.lifecycle.issued_at)) / 86_400_000;
    expect(days).toBeCloseTo(30, 5);
    const tooLong = new Date(Date.now() + 31 * 86_400_000).toISOString();
    const err = await create(c.auth, { subject: "D", claim_type: TYPE, evidence: { base: target }, expires_at: tooLong }).catch((e) => e);
    expect(err).toMatchObject({ code: "invalid_value", param: "expires_at" });
  });

  it("a review precondition refuses approval and changes nothing", async () => {
    const c = await customer();
    const reviewer = await newReviewer("r");
    const target = await base(c.auth);
    const sub = await create(c.auth, { subject: "Dependent", claim_type: TYPE, evidence: { base: target, review: true } });
    expect(sub.status).toBe(202);
    const [pending] = await db.select().from(records).where(eq(records.id, sub.body.verification_id));
    // time under test: the precondition refuses evidence older than 50 ms, so the clock must pass that.
    await untilPast(pending!.createdAt.toISOString(), 60);
    const checklist = ["source_opened", "subject_matches", "claim_supported", "checked_at_plausible"];
    const err = await decideSubmission(db, reviewer, sub.body.verification_id, { decision: "approve", checklist }).catch((e) => e);
    expect(err).toMatchObject({ code: "review_precondition_failed" });
    expect(err.message).toContain("older than 50 ms");
    const [row] = await db.select().from(records).where(eq(records.id, sub.body.verification_id));
    expect(row!.status).toBe("pending_review");
  });
});
