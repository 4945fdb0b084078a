import { describe, expect, it } from "vitest";
import { sleep } from "../helpers";
import { verifyWithKeySet } from "../signatures";
import { dataLayerTest, testClaimType, linksToBase } from "./setup";

/*
 * Status at a point in time, in process, for what the HTTP API cannot reach yet: the
 * standing of linked records as of the instant (no shipped type links records yet, so a
 * type registered by this test does), a submission approved later and a rejected one.
 */
const { db, liveCustomer: newLiveCustomer, reviewer: newReviewer, create: createPublic } = await dataLayerTest({ env: { MIN_VALIDITY_SECONDS: "1" } });
const { registerClaimType } = await import("@/lib/claims/registry");
const { changeLifecycle } = await import("@/lib/records/change-lifecycle");
const { getHistoryPage } = await import("@/lib/record-model/history-page");
const getHistory = async (d: typeof db, id: string) => (await getHistoryPage(d, id, { limit: 200 })).entries;
const { getSignedStatus, getSignedStatusAt } = await import("@/lib/public/record/signed-status");
const { decideSubmission } = await import("@/lib/reviews/decide-submission");
const { publicJwks } = await import("@/lib/signing/keys");

const TYPE = "test_status_at_rests_on";
registerClaimType(testClaimType(TYPE, {
  request: { links: linksToBase },
  async check(input, ctx) {
    const base = ctx.linked.get("base_record");
    if (!base || base.status !== "active") {
      return { kind: "fail", error: { code: "invalid_value", param: "evidence.base", message: "No active record of this account." } };
    }
    return { kind: "issue", evidenceLevel: "participant_attested", publicEvidence: { base: base.id } };
  },
  view: {
    publicFields: ({ links }) => ({ base: { standing: links[0]?.standing ?? "unlinked", record: links[0]?.record ?? null } }),
  },
}));

// time under test: a clock tick, so the moments of two steps differ and an instant between them can be asked about.
const tick = () => sleep(20);

const liveCustomer = async () => (await newLiveCustomer({ tag: "sa" })).auth;
type Auth = Awaited<ReturnType<typeof liveCustomer>>;
const create = (auth: Auth, body: Record<string, unknown>) => createPublic(auth, { claim: "x", ...body });

async function at(id: string, when: Date | number) {
  const s = await getSignedStatusAt(db, id, new Date(when));
  return s ? (JSON.parse(s.body) as Record<string, any>) : null;
}

async function verifies(body: Record<string, unknown>) {
  const { status_signature, ...payload } = body;
  return verifyWithKeySet(publicJwks(), payload, status_signature as string, body.signing_key_id as string);
}

const historyTimes = async (id: string) => (await getHistory(db, id)).map((h) => ({ status: h.status, at: h.at.getTime() }));

describe("getSignedStatusAt", () => {
  it("a linked record's standing is read from its history at the instant, not today's", async () => {
    const auth = await liveCustomer();
    const base = (await create(auth, { subject: "Base Ltd", claim_type: "company_status" })).body.verification_id as string;
    await tick();
    const dep = (await create(auth, { subject: "Dependent", claim_type: TYPE, evidence: { base } })).body.verification_id as string;
    await tick();
    await changeLifecycle(db, auth, base, { operation: "suspend", reason: "Checking." });
    await tick();
    await changeLifecycle(db, auth, base, { operation: "reinstate", reason: "Checked." });
    await tick();
    await changeLifecycle(db, auth, base, { operation: "revoke", reason: "Gone." });

    const [, suspended, reinstated, revoked] = await historyTimes(base);
    const [issued] = await historyTimes(dep);
    const named = { verification_id: base, claim_type: "company_status", subject: "Base Ltd" };
    const phases: [number, "active" | "lapsed"][] = [
      [issued!.at, "active"], [suspended!.at, "lapsed"], [suspended!.at + 1 < reinstated!.at ? reinstated!.at - 1 : suspended!.at, "lapsed"],
      [reinstated!.at, "active"], [revoked!.at - 1, "active"], [revoked!.at, "lapsed"],
    ];
    for (const [ms, standing] of phases) {
      const s = (await at(dep, ms))!;
      expect(s, new Date(ms).toISOString()).toMatchObject({ status: "active", verified: false, base: { standing, record: named }, at: new Date(ms).toISOString() });
      expect(await verifies(s)).toBe(true);
    }
    // Today the base is revoked: the live answer says so, the past one did not.
    expect(JSON.parse((await getSignedStatus(db, dep))!.body).base.standing).toBe("lapsed");
  });

  it("a submission is not issued until approved: 404 before, active from the approval on", async () => {
    const auth = await liveCustomer();
    const reviewer = await newReviewer();
    const sub = await create(auth, {
      subject: "Reviewed Ltd", claim_type: "trade_licence", claim: "Holds trade licence 42", source_name: "Register",
      source_url: "https://example.org/licences/42", checked_at: new Date(Date.now() - 3600_000).toISOString(),
    });
    expect(sub.status).toBe(202);
    const id = sub.body.verification_id as string;
    expect(await at(id, Date.now())).toBeNull();
    await tick();
    const checklist = ["source_opened", "subject_matches", "claim_supported", "checked_at_plausible"];
    await decideSubmission(db, reviewer, id, { decision: "approve", checklist });
    const [pending, approved] = await historyTimes(id);
    expect([pending!.status, approved!.status]).toEqual(["pending_review", "active"]);
    expect(await at(id, pending!.at)).toBeNull();
    expect(await at(id, approved!.at - 1)).toBeNull();
    const s = (await at(id, approved!.at))!;
    expect(s).toMatchObject({ status: "active", verified: true, evidence_level: "evidence_verified", status_changed_at: new Date(approved!.at).toISOString() });
    expect(await verifies(s)).toBe(true);
  });

  it("a rejected submission is null for any instant", async () => {
    const auth = await liveCustomer();
    const reviewer = await newReviewer();
    const sub = await create(auth, {
      subject: "Refused Ltd", claim_type: "trade_licence", claim: "Holds trade licence 43", source_name: "Register",
      source_url: "https://example.org/licences/43", checked_at: new Date(Date.now() - 3600_000).toISOString(),
    });
    const id = sub.body.verification_id as string;
    await decideSubmission(db, reviewer, id, { decision: "reject", reason: "The register shows licence 43 as withdrawn." });
    for (const h of await historyTimes(id)) expect(await at(id, h.at)).toBeNull();
    expect(await at(id, Date.now())).toBeNull();
  });
});
