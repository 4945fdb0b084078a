import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { setDns, sleep, untilPast } from "../helpers";
import { verifyWithKeySet } from "../signatures";
import { inOneUsageMonth } from "../usage-month";
import { dataLayerTest, onPostgres, uniqueEmail } from "./setup";

const { db, reviewer: newReviewer } = await dataLayerTest({
  env: {
    DNS_SERVERS: inject("serverEnv").DNS_SERVERS!,
    DNS_TIMEOUT_MS: "250",
    MIN_VALIDITY_SECONDS: "1",
    PLAN_LIMITS: JSON.stringify({ starter: { reviewed_verifications: 2 } }),
  },
});
const { rowsOf } = await import("@/lib/db/client");
const { createAccount } = await import("@/lib/accounts/create-account");
const { createApiKey } = await import("@/lib/accounts/create-api-key");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { getUsage } = await import("@/lib/accounts/get-usage");
const { createRecord } = await import("@/lib/records/create-record");
const { getPublicRecord } = await import("@/lib/record-model/get-record");
const { getHistoryPage } = await import("@/lib/record-model/history-page");
const getHistory = async (d: typeof db, id: string) => (await getHistoryPage(d, id, { limit: 200 })).entries;
const { createDomainChallenge } = await import("@/lib/challenges/challenges");
const { decideSubmission, rerunAutomaticCheck } = await import("@/lib/reviews/decide-submission");
const { listQueue, queueCounts, getSubmission } = await import("@/lib/reviews/review-queue");
const { checklistFor } = await import("@/lib/reviews/checklists");
const { publicJwks } = await import("@/lib/signing/keys");

const reviewer = await newReviewer("rev");
const reviewer2 = await newReviewer("rev2");

async function customer(opts: { live?: boolean } = {}) {
  const a = await createAccount(db, { email: uniqueEmail("c"), plan: opts.live ? "starter" : "none", emailConfirmed: true });
  const key = opts.live ? (await createApiKey(db, a.accountId, "live")).key : a.sandboxKey;
  return { accountId: a.accountId, auth: await authenticateApiKey(db, `Bearer ${key}`) };
}

/** A claim type without a connector: 202 pending_review, issued only after a reviewer. */
async function submitGeneric(auth: Awaited<ReturnType<typeof customer>>["auth"], over: Record<string, unknown> = {}) {
  const res = await createRecord(db, auth, {
    subject: over.subject ?? `licence-${randomUUID().slice(0, 8)}`, claim_type: "trade_licence", claim: "Holds trade licence 42",
    source_name: "City register", source_url: "https://register.example.gov/licences/42", checked_at: new Date().toISOString(),
    evidence_level: "evidence_verified", ...over,
  }, randomUUID());
  expect(res.status).toBe(202);
  return JSON.parse(res.bodyJson);
}

const fullChecklist = (claimType = "trade_licence") => checklistFor(claimType, {}).map((i) => i.key);

async function auditRows(recordId: string) {
  return rowsOf(await db.execute(sql`select decision, checklist, notes, reason, reviewer_account_id from review_decisions where record_id = ${recordId} order by seq`));
}

const verifyIndependently = (payload: unknown, signature: string, kid: string) => verifyWithKeySet(publicJwks(), payload, signature, kid);

describe("review decisions", () => {
  it("approve issues the record at evidence_verified, signed, with history, audit row and record.issued event", async () => {
    const c = await customer();
    const sub = await submitGeneric(c.auth);
    expect(sub).toMatchObject({ status: "pending_review", certificate_url: null, integrity: null });
    expect(await getPublicRecord(db, sub.verification_id)).toBeNull();

    const rec = await decideSubmission(db, reviewer, sub.verification_id, { decision: "approve", checklist: fullChecklist(), notes: "Register entry seen." });
    expect(rec).toMatchObject({ status: "active", evidence_level: "evidence_verified", review: null });
    expect(rec.lifecycle.history.map((h) => [h.status, h.by])).toEqual([["pending_review", "owner"], ["active", "reviewer"]]);

    const row = (await getPublicRecord(db, sub.verification_id))!;
    expect(row.status).toBe("active");
    expect(await verifyIndependently(row.signedPayload, row.signature!, row.signingKeyId!)).toBe(true);
    expect(row.signedPayload).toMatchObject({ evidence_level: "evidence_verified", subject: sub.subject, evidence: { source_name: "City register" } });

    expect(await auditRows(sub.verification_id)).toEqual([
      { decision: "approve", checklist: fullChecklist(), notes: "Register entry seen.", reason: null, reviewer_account_id: reviewer.id },
    ]);
    const ev = rowsOf(await db.execute(sql`select type from events where payload like ${"%" + sub.verification_id + "%"} order by created_at`));
    // The owner is told: the record.issued event and an account.notice (with its mail).
    expect(ev.map((e) => e.type)).toEqual(["record.pending_review", "record.issued", "account.notice"]);
  });

  it("approve needs every checklist item; nothing changes otherwise", async () => {
    const c = await customer();
    const sub = await submitGeneric(c.auth);
    const partial = fullChecklist().slice(1);
    // Named by the label the reviewer sees, never by its key.
    const [missing] = checklistFor("trade_licence", {});
    await expect(decideSubmission(db, reviewer, sub.verification_id, { decision: "approve", checklist: partial }))
      .rejects.toMatchObject({ code: "checklist_incomplete", status: 422, param: "checklist", message: expect.stringContaining(`“${missing!.label.replace(/\.$/, "")}”`) });
    await expect(decideSubmission(db, reviewer, sub.verification_id, { decision: "approve", checklist: partial }))
      .rejects.not.toMatchObject({ message: expect.stringContaining(missing!.key) });
    await expect(decideSubmission(db, reviewer, sub.verification_id, { decision: "approve", checklist: [...fullChecklist(), "made_up"] }))
      .rejects.toMatchObject({ code: "invalid_value", param: "checklist" });
    expect((await getSubmission(db, sub.verification_id))!.row.status).toBe("pending_review");
    expect(await auditRows(sub.verification_id)).toEqual([]);
  });

  it("reject needs a reason, is terminal, shows the reason to the customer and is never public", async () => {
    const c = await customer();
    const sub = await submitGeneric(c.auth);
    await expect(decideSubmission(db, reviewer, sub.verification_id, { decision: "reject" }))
      .rejects.toMatchObject({ code: "missing_field", param: "reason" });
    const rec = await decideSubmission(db, reviewer, sub.verification_id, { decision: "reject", reason: "The register shows licence 42 as withdrawn." });
    expect(rec).toMatchObject({
      status: "rejected", evidence_level: null, review: { reason: "The register shows licence 42 as withdrawn.", evidence_level: "evidence_verified" },
      integrity: null, certificate_url: null,
    });
    expect(await getPublicRecord(db, sub.verification_id)).toBeNull();
    const hist = await getHistory(db, sub.verification_id);
    expect(hist.at(-1)).toMatchObject({ status: "rejected", reason: "The register shows licence 42 as withdrawn." });
    expect((await auditRows(sub.verification_id))[0]).toMatchObject({ decision: "reject", reason: "The register shows licence 42 as withdrawn." });
    await expect(decideSubmission(db, reviewer2, sub.verification_id, { decision: "approve", checklist: fullChecklist() }))
      .rejects.toMatchObject({ code: "review_conflict", status: 409 });
  });

  it("a reviewer cannot decide their own account's submission; a customer cannot decide at all", async () => {
    const auth = await authenticateApiKey(db, `Bearer ${(await createApiKey(db, reviewer.id, "sandbox")).key}`);
    const own = await submitGeneric(auth);
    await expect(decideSubmission(db, reviewer, own.verification_id, { decision: "approve", checklist: fullChecklist() }))
      .rejects.toMatchObject({ code: "own_submission", status: 403 });
    const c = await customer();
    await expect(decideSubmission(db, { id: c.accountId, role: "customer" }, own.verification_id, { decision: "reject", reason: "nope" }))
      .rejects.toMatchObject({ code: "forbidden", status: 403 });
    // Another reviewer can.
    await decideSubmission(db, reviewer2, own.verification_id, { decision: "approve", checklist: fullChecklist() });
  });

  it("a decision after another is refused with review_conflict naming the one that stands", async () => {
    const c = await customer();
    const sub = await submitGeneric(c.auth);
    await decideSubmission(db, reviewer, sub.verification_id, { decision: "approve", checklist: fullChecklist() });
    const late = decideSubmission(db, reviewer2, sub.verification_id, { decision: "reject", reason: "Source does not load." });
    await expect(late).rejects.toMatchObject({ code: "review_conflict", message: expect.stringMatching(/already decided: it is active now \(approve by /) });
    expect((await auditRows(sub.verification_id)).map((r) => r.decision)).toEqual(["approve"]);
    expect((await getSubmission(db, sub.verification_id))!.row.status).toBe("active");
  });

  // PostgreSQL only: PGlite's one connection runs the two decisions' transactions one after
  // the other, which is the test above; only PostgreSQL has both wait on the row lock.
  it.runIf(onPostgres)("two reviewers deciding at once: exactly one wins, the other gets review_conflict", async () => {
    const c = await customer();
    for (let i = 0; i < 3; i++) {
      const sub = await submitGeneric(c.auth);
      const results = await Promise.allSettled([
        decideSubmission(db, reviewer, sub.verification_id, { decision: "approve", checklist: fullChecklist() }),
        decideSubmission(db, reviewer2, sub.verification_id, { decision: "reject", reason: "Source does not load." }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toMatchObject({ code: "review_conflict" });
      expect(lost[0]!.reason.message).toMatch(/already decided/);
      const audit = await auditRows(sub.verification_id);
      expect(audit).toHaveLength(1);
      const final = (await getSubmission(db, sub.verification_id))!.row.status;
      expect(final).toBe(audit[0]!.decision === "approve" ? "active" : "rejected");
    }
  });

  it("unknown or malformed ids are 404, bad bodies 422", async () => {
    await expect(decideSubmission(db, reviewer, "PRS-00000000000000000000", { decision: "reject", reason: "x y z" }))
      .rejects.toMatchObject({ code: "submission_not_found", status: 404 });
    await expect(decideSubmission(db, reviewer, "nope", { decision: "reject", reason: "x y z" }))
      .rejects.toMatchObject({ code: "submission_not_found" });
    const c = await customer();
    const sub = await submitGeneric(c.auth);
    await expect(decideSubmission(db, reviewer, sub.verification_id, { decision: "maybe" })).rejects.toMatchObject({ status: 422 });
    await expect(decideSubmission(db, reviewer, sub.verification_id, { decision: "reject", reason: "x".repeat(501) })).rejects.toMatchObject({ status: 422 });
  });

  it("the audit log is append-only", async () => {
    const c = await customer();
    const sub = await submitGeneric(c.auth);
    await decideSubmission(db, reviewer, sub.verification_id, { decision: "reject", reason: "Not in the register." });
    await expect(db.execute(sql`update review_decisions set reason = 'edited' where record_id = ${sub.verification_id}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from review_decisions where record_id = ${sub.verification_id}`)).rejects.toThrow();
    expect((await auditRows(sub.verification_id))[0]!.reason).toBe("Not in the register.");
  });

  it("a requested validity that ended while waiting cannot be issued", async () => {
    const c = await customer();
    const expiresAt = Date.now() + 2500;
    const sub = await submitGeneric(c.auth, { expires_at: new Date(expiresAt).toISOString() });
    await untilPast(new Date(expiresAt).toISOString()); // time under test: the requested validity ending (the clock, not a guess)
    await expect(decideSubmission(db, reviewer, sub.verification_id, { decision: "approve", checklist: fullChecklist() }))
      .rejects.toMatchObject({ code: "review_validity_passed", status: 409 });
    expect((await getSubmission(db, sub.verification_id))!.row.status).toBe("pending_review");
  });
});

describe("metering reviewed verifications", () => {
  it("live decisions count one reviewed verification each; sandbox none; the allowance refuses new live submissions", () => inOneUsageMonth(async () => {
    const live = await customer({ live: true });
    const a = await submitGeneric(live.auth);
    const b = await submitGeneric(live.auth);
    await decideSubmission(db, reviewer, a.verification_id, { decision: "approve", checklist: fullChecklist() });
    let usage = await getUsage(db, { accountId: live.accountId, plan: "starter" });
    expect(usage.reviewed_verifications).toMatchObject({ used: 1, allowance: 2 });
    expect(usage.live_records.used).toBe(0);
    await decideSubmission(db, reviewer, b.verification_id, { decision: "reject", reason: "No such licence." });
    usage = await getUsage(db, { accountId: live.accountId, plan: "starter" });
    expect(usage.reviewed_verifications.used).toBe(2);
    await expect(createRecord(db, live.auth, {
      subject: "licence-over", claim_type: "trade_licence", claim: "c", source_name: "s", source_url: "https://s.example/x",
      checked_at: new Date().toISOString(), evidence_level: "evidence_verified",
    }, randomUUID())).rejects.toMatchObject({ code: "plan_limit_reached", status: 402 });

    const sb = await customer();
    const s = await submitGeneric(sb.auth);
    await decideSubmission(db, reviewer, s.verification_id, { decision: "approve", checklist: fullChecklist() });
    expect((await getUsage(db, { accountId: sb.accountId, plan: "none" })).reviewed_verifications.used).toBe(0);
  }));
});

describe("queue", () => {
  it("lists pending submissions oldest first, filters by claim type and age, counts per claim type", async () => {
    const c = await customer();
    const first = await submitGeneric(c.auth, { claim_type: "queue_type_a" });
    await sleep(20); // time under test: a clock tick, so the two submissions' times differ
    const second = await submitGeneric(c.auth, { claim_type: "queue_type_a" });
    const other = await submitGeneric(c.auth, { claim_type: "queue_type_b" });
    const a = await listQueue(db, { environment: "sandbox", claimType: "queue_type_a" });
    expect(a.map((r) => r.id)).toEqual([first.verification_id, second.verification_id]);
    expect(a[0]).toMatchObject({ accountEmail: expect.stringMatching(/@example\.test$/), sla: { overdue: false } });
    const all = await listQueue(db, { environment: "sandbox" });
    const created = all.map((r) => r.createdAt.getTime());
    expect(created).toEqual([...created].sort((x, y) => x - y));
    expect(all.some((r) => r.id === other.verification_id)).toBe(true);
    expect(await listQueue(db, { environment: "sandbox", claimType: "queue_type_a", olderThanHours: 1 })).toEqual([]);
    const future = new Date(Date.now() + 25 * 3600_000);
    expect((await listQueue(db, { environment: "sandbox", claimType: "queue_type_a", olderThanHours: 24 }, future)).map((r) => r.sla.overdue)).toEqual([true, true]);
    const counts = await queueCounts(db, "sandbox");
    expect(counts.find((x) => x.claimType === "queue_type_a")?.count).toBe(2);
    expect(counts.find((x) => x.claimType === "queue_type_b")?.count).toBe(1);
    await decideSubmission(db, reviewer, first.verification_id, { decision: "reject", reason: "Duplicate." });
    expect((await listQueue(db, { environment: "sandbox", claimType: "queue_type_a" })).map((r) => r.id)).toEqual([second.verification_id]);
  });

  it("splits the queue by environment: sandbox submissions never in the live queue, its counts or its overdue figure", async () => {
    const live = await customer({ live: true });
    const sandbox = await customer();
    const l = await submitGeneric(live.auth, { claim_type: "split_type" });
    const s = await submitGeneric(sandbox.auth, { claim_type: "split_type" });
    const made = await submitGeneric(sandbox.auth, { claim_type: "made_up_type_x" });
    const liveRows = await listQueue(db, { claimType: "split_type" });
    expect(liveRows.map((r) => r.id)).toEqual([l.verification_id]);
    expect((await listQueue(db, {})).some((r) => r.id === s.verification_id || r.id === made.verification_id)).toBe(false);
    expect((await listQueue(db, { environment: "sandbox", claimType: "split_type" })).map((r) => r.id)).toEqual([s.verification_id]);
    const later = new Date(Date.now() + 25 * 3600_000);
    const liveCounts = await queueCounts(db, "live", later);
    expect(liveCounts.find((x) => x.claimType === "split_type")).toMatchObject({ count: 1, overdue: 1 });
    expect(liveCounts.some((x) => x.claimType === "made_up_type_x")).toBe(false);
    expect((await queueCounts(db, "live")).find((x) => x.claimType === "split_type")).toMatchObject({ count: 1, overdue: 0 });
    expect((await queueCounts(db, "sandbox", later)).find((x) => x.claimType === "made_up_type_x")).toMatchObject({ count: 1, overdue: 1 });
  });

  it("the review page data carries earlier decisions on the same subject", async () => {
    const c = await customer();
    const subject = `same-subject-${randomUUID().slice(0, 6)}`;
    const old = await submitGeneric(c.auth, { subject });
    await decideSubmission(db, reviewer, old.verification_id, { decision: "reject", reason: "Register shows another holder." });
    const again = await submitGeneric(c.auth, { subject });
    const s = (await getSubmission(db, again.verification_id))!;
    expect(s.earlier).toHaveLength(1);
    expect(s.earlier[0]).toMatchObject({ recordId: old.verification_id, decision: "reject", reason: "Register shows another holder." });
    expect(s.canRerun).toBe(false);
    expect(s.checklist.map((i) => i.key)).toEqual(fullChecklist());
  });
});

describe("re-run automatic check", () => {
  it("a DNS-unreachable domain submission stays pending while DNS is down and issues without a human once it answers", async () => {
    const c = await customer();
    const domain = `rerun-${randomBytes(3).toString("hex")}.example.com`;
    const ch = await createDomainChallenge(db, c.auth, { domain });
    setDns(ch.txt_name, "drop");
    const res = await createRecord(db, c.auth, { subject: domain, claim_type: "domain_ownership", claim: "Controls DNS", evidence: { challenge_id: ch.id } }, randomUUID());
    expect(res.status).toBe(202);
    const id = JSON.parse(res.bodyJson).verification_id;
    expect((await getSubmission(db, id))!.canRerun).toBe(true);

    const still = await rerunAutomaticCheck(db, reviewer, id);
    expect(still.outcome).toBe("unreachable");
    expect((await getSubmission(db, id))!.row).toMatchObject({ status: "pending_review", reviewReason: expect.stringMatching(/still unreachable/) });

    setDns(ch.txt_name, ["something-else"]);
    const wrong = await rerunAutomaticCheck(db, reviewer, id);
    expect(wrong.outcome).toBe("failed");

    setDns(ch.txt_name, [ch.txt_value]);
    const done = await rerunAutomaticCheck(db, reviewer, id);
    expect(done).toMatchObject({ outcome: "issued", record: { status: "active", evidence_level: "source_verified" } });
    const row = (await getPublicRecord(db, id))!;
    expect(await verifyIndependently(row.signedPayload, row.signature!, row.signingKeyId!)).toBe(true);
    expect(row.recheckAt).not.toBeNull();
    expect((await auditRows(id)).map((r) => r.decision)).toEqual(["rerun_unchanged", "rerun_failed", "rerun_issued"]);
    await expect(rerunAutomaticCheck(db, reviewer, id)).rejects.toMatchObject({ code: "review_conflict" });
    setDns(ch.txt_name, null);
  });

  it("a domain submission a reviewer approves is evidence_verified, the reviewer's check, and keeps being re-checked like an automatic one; a generic one is not", async () => {
    const c = await customer();
    const domain = `approve-${randomBytes(3).toString("hex")}.example.com`;
    const ch = await createDomainChallenge(db, c.auth, { domain });
    setDns(ch.txt_name, "servfail");
    const res = await createRecord(db, c.auth, { subject: domain, claim_type: "domain_ownership", claim: "Controls DNS", evidence: { challenge_id: ch.id } }, randomUUID());
    expect(res.status).toBe(202);
    const id = JSON.parse(res.bodyJson).verification_id;
    const before = Date.now();
    const rec = await decideSubmission(db, reviewer, id, { decision: "approve", checklist: fullChecklist("domain_ownership") });
    // The reviewer confirmed it; the service never heard DNS say so (CONTRACT "What was checked").
    expect(rec).toMatchObject({ status: "active", evidence_level: "evidence_verified" });
    expect(rec.checks).toEqual([{ fact: "domain_control", by: "reviewer", source: `DNS TXT ${ch.txt_name}`, at: rec.lifecycle.issued_at }]);
    const recheckAt = Date.parse(rec.lifecycle.recheck_at!);
    expect(recheckAt).toBeGreaterThanOrEqual(before + 86_400_000 - 1000); // RECHECK_INTERVAL_MS default: one day
    expect(recheckAt).toBeLessThanOrEqual(Date.now() + 86_400_000);
    setDns(ch.txt_name, null);

    const g = await submitGeneric(c.auth);
    const generic = await decideSubmission(db, reviewer, g.verification_id, { decision: "approve", checklist: fullChecklist() });
    expect(generic.lifecycle.recheck_at).toBeNull();
  });

  it("is not offered for claim types without a connector", async () => {
    const c = await customer();
    const sub = await submitGeneric(c.auth);
    await expect(rerunAutomaticCheck(db, reviewer, sub.verification_id)).rejects.toMatchObject({ code: "recheck_not_available", status: 422 });
  });
});
