import { randomBytes } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { dataLayerTest, uniqueEmail } from "./setup";

/*
 * Issue 39: staff who can catch a scammer. Account-level suspension (every live record off
 * green at once with the public reason, keys and sign-in refused, webhooks disabled, plan
 * frozen; only staff lift it), risk signals with the impersonation watches' matcher, four eyes
 * on a high-risk approval, notices to owners and reporters through the mail outbox, and the
 * append-only staff audit trail.
 */
const { db, reviewer: newReviewer, create, keyAnswer } = await dataLayerTest({ env: { SMTP_URL: undefined } });
const { accounts, events, mailOutbox, recordHistory, records, staffAudit, webhooks } = await import("@/drizzle/schema");
const { actorKind } = await import("@/lib/public/record/public-view");
const { eq, and, desc, sql } = await import("drizzle-orm");
const { createAccount } = await import("@/lib/accounts/create-account");
const { createApiKey } = await import("@/lib/accounts/create-api-key");
const { setPlan } = await import("@/lib/accounts/manage-account");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { createWalletChallenge } = await import("@/lib/challenges/challenges");
const { setVerifiedOrganisation, afterOrganisationChange } = await import("@/lib/organisations/set-organisation");
const { decideSubmission } = await import("@/lib/reviews/decide-submission");
const { checklistFor } = await import("@/lib/reviews/checklists");
const { assessRisk, plainValues, isMixedScript } = await import("@/lib/reviews/risk-signals");
const { suspendAccount, reinstateAccount } = await import("@/lib/staff/suspend-account");
const { changeLifecycle } = await import("@/lib/records/change-lifecycle");
const { getSignedStatus } = await import("@/lib/public/record/signed-status");
const { staffAction } = await import("@/lib/staff/staff-action");
const { reportProblem, closeReport } = await import("@/lib/reports/report-problem");
const { listAudit, auditCsvRow } = await import("@/lib/audit/staff-audit");
const { ApiError } = await import("@/lib/http/errors");
const { runAdminCommand } = await import("@/lib/admin/commands");

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return "ok";
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
};

/** A live, confirmed, growth-plan customer; its key and auth. */
async function customer(tag: string, name?: string) {
  const a = await createAccount(db, { email: uniqueEmail(tag), emailConfirmed: true });
  await setPlan(db, a.accountId, "growth");
  if (name) await db.update(accounts).set({ name }).where(eq(accounts.id, a.accountId));
  const { key } = await createApiKey(db, a.accountId, "live");
  return { accountId: a.accountId, key, auth: await authenticateApiKey(db, `Bearer ${key}`) };
}

async function walletRecord(auth: Awaited<ReturnType<typeof authenticateApiKey>>) {
  const acct = privateKeyToAccount(generatePrivateKey());
  const ch = await createWalletChallenge(db, auth, { address: acct.address, network: "ethereum" });
  const r = await create(auth, { subject: acct.address, claim_type: "wallet_ownership", claim: "Controls the wallet.", evidence: { challenge_id: ch.id, signature: await acct.signMessage({ message: ch.message }) } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.verification_id as string;
}

async function verifiedOrganisation(legalName: string, domains: string[] = []) {
  const a = await createAccount(db, { email: uniqueEmail("org"), plan: "growth", emailConfirmed: true });
  await db.transaction((tx) => setVerifiedOrganisation(tx, {
    accountId: a.accountId, legalName, lei: null, jurisdiction: null, basis: "documents", domains, verificationId: null, at: new Date(),
  }));
  afterOrganisationChange(a.accountId);
  return a.accountId;
}

const signed = async (id: string) => JSON.parse((await getSignedStatus(db, id))!.body) as { status: string; verified: boolean };
const mailsTo = (to: string) => db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
const emailOf = async (id: string) => (await db.select({ e: accounts.email }).from(accounts).where(eq(accounts.id, id)))[0]!.e;

describe("account suspension", () => {
  it("takes every live record off green with the public reason, refuses keys, disables webhooks, freezes the plan; only staff lift it", async () => {
    const staff = await newReviewer();
    const c = await customer("scam");
    const ids = [await walletRecord(c.auth), await walletRecord(c.auth)];
    for (const id of ids) expect(await signed(id)).toMatchObject({ status: "active", verified: true });
    const hook = `wh_${randomBytes(8).toString("hex")}`;
    await db.insert(webhooks).values({ id: hook, accountId: c.accountId, environment: "live", url: "https://hooks.example.test/x", events: [], description: null, secret: "whsec_x", status: "enabled", disabledReason: null, consecutiveFailures: 0, createdAt: new Date(), deletedAt: null });

    const reason = "Impersonates Brightkettle Ltd: reported by its owner.";
    const done = await suspendAccount(db, { accountId: staff.id, role: "reviewer" }, c.accountId, { reason });
    expect(done).toMatchObject({ status: "suspended", webhooks: 1 });
    expect([...done.records].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(await signed(id)).toMatchObject({ status: "suspended", verified: false });
      // The public history (certificate, public record) says who and why: staff, with the reason.
      const [last] = await db.select().from(recordHistory).where(eq(recordHistory.recordId, id)).orderBy(desc(recordHistory.seq)).limit(1);
      expect(last).toMatchObject({ status: "suspended", reason });
      expect(actorKind(last!.by)).toBe("staff");
    }
    expect(await keyAnswer(c.key)).toBe("account_suspended");
    expect((await db.select().from(webhooks).where(eq(webhooks.id, hook)))[0]).toMatchObject({ status: "disabled", disabledReason: "account_suspended" });
    expect(await code(setPlan(db, c.accountId, "starter"))).toBe("invalid_transition");
    // The owner cannot lift a staff suspension (its keys are refused anyway; its context from before the suspension is refused too).
    expect(await code(changeLifecycle(db, c.auth, ids[0]!, { operation: "reinstate", reason: "Let me back." } as never))).toBe("suspended_by_staff");
    expect(await code(suspendAccount(db, { accountId: staff.id, role: "reviewer" }, c.accountId, { reason }))).toBe("invalid_transition");
    // A customer is no staff.
    expect(await code(reinstateAccount(db, { accountId: c.accountId, role: "customer" }, c.accountId, { reason: "let me back" }))).toBe("forbidden");

    // Told: an account.notice event and a mail, queued in the suspending transaction.
    const notices = await db.select().from(events).where(and(eq(events.accountId, c.accountId), eq(events.type, "account.notice")));
    expect(notices.map((e) => JSON.parse(e.payload).data.notice.kind)).toContain("account.suspended");
    const mails = await mailsTo(await emailOf(c.accountId));
    expect(mails.find((m) => m.subject === "Your Proof Records account was suspended")?.text).toContain(`Reason: ${reason}`);

    const back = await reinstateAccount(db, { accountId: staff.id, role: "reviewer" }, c.accountId, { reason: "The owner proved the name is theirs." });
    expect(back).toMatchObject({ status: "active", webhooks: 1, left_suspended: [] });
    for (const id of ids) expect(await signed(id)).toMatchObject({ status: "active", verified: true });
    expect(await keyAnswer(c.key)).toBe(c.accountId);
    expect((await db.select().from(webhooks).where(eq(webhooks.id, hook)))[0]).toMatchObject({ status: "enabled", disabledReason: null });

    const trail = await listAudit(db, { accountId: c.accountId });
    expect(trail.map((e) => [e.action, e.staffAccountId])).toEqual([["account.reinstate", staff.id], ["account.suspend", staff.id], ["account.set_plan", null]]);
    expect(trail[1]!.after).toMatchObject({ suspended: true, webhooks_disabled: 1 });
  });

  it("reinstating the account leaves a record the owner suspended as it was; staff never act on their own account", async () => {
    const staff = await newReviewer();
    const c = await customer("own");
    const [mine, theirs] = [await walletRecord(c.auth), await walletRecord(c.auth)];
    await changeLifecycle(db, c.auth, mine, { operation: "suspend", reason: "Paused by us." } as never);
    const done = await suspendAccount(db, { accountId: staff.id, role: "reviewer" }, c.accountId, { reason: "Under investigation." });
    expect(done.records).toEqual([theirs]);
    const back = await reinstateAccount(db, { accountId: staff.id, role: "reviewer" }, c.accountId, { reason: "Cleared." });
    expect(back.records).toEqual([theirs]);
    expect((await signed(mine)).status).toBe("suspended");
    expect(await code(suspendAccount(db, { accountId: staff.id, role: "reviewer" }, staff.id, { reason: "Trying myself." }))).toBe("own_account");
    expect(await code(suspendAccount(db, { accountId: staff.id, role: "reviewer" }, "acct_nosuchaccount", { reason: "Nobody." }))).toBe("account_not_found");
  });

  it("works at the CLI (admin account suspend|reinstate) and the audit trail names the operator", async () => {
    const c = await customer("cli");
    const id = await walletRecord(c.auth);
    const r = await runAdminCommand(db, ["account", "suspend", "--account", c.accountId, "--reason", "Fraud reported to the police."]);
    expect(r).toMatchObject({ ok: true, result: { status: "suspended", records: [id] } });
    expect((await signed(id)).status).toBe("suspended");
    const bad = await runAdminCommand(db, ["account", "suspend", "--account", c.accountId, "--reason", "again"]);
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_transition" } });
    const list = await runAdminCommand(db, ["audit", "list", "--account", c.accountId]);
    expect(list.ok && (list.result.entries as { action: string; staff: string }[])[0]).toMatchObject({ action: "account.suspend", staff: "operator (CLI)" });
    expect(await runAdminCommand(db, ["account", "reinstate", "--account", c.accountId, "--reason", "Cleared by the police."])).toMatchObject({ ok: true, result: { status: "active", records: [id] } });
    // An organisation decided outside the console, and removed: audited, and the owner told.
    const boss = await newReviewer("boss");
    expect(await runAdminCommand(db, ["organisation", "verify", "--account", c.accountId, "--legal-name", `Cli ${randomBytes(3).toString("hex")} Ltd`, "--by", boss.id])).toMatchObject({ ok: true });
    expect(await runAdminCommand(db, ["organisation", "remove", "--account", c.accountId, "--reason", "The company was struck off."])).toMatchObject({ ok: true });
    const trail = await listAudit(db, { accountId: c.accountId, limit: 2 });
    expect(trail.map((e) => [e.action, e.staffAccountId])).toEqual([["organisation.remove", null], ["organisation.verify", boss.id]]);
    const subjects = (await mailsTo(await emailOf(c.accountId))).map((m) => m.subject);
    expect(subjects).toEqual(expect.arrayContaining(["Your organisation is verified", "Your organisation verification was removed", "Your Proof Records account was reinstated"]));
  });
});

describe("risk signals and four eyes", () => {
  it("a look-alike of a verified organisation's domain is a high signal (brightkettie.co.uk beside brightkettle.co.uk)", async () => {
    const tag = randomBytes(3).toString("hex");
    const orgId = await verifiedOrganisation(`Brightkettle ${tag} Ltd`, [`brightkettle${tag}.co.uk`]);
    const c = await customer("kettie");
    const risk = await assessRisk(db, { accountId: c.accountId, values: plainValues([{ kind: "domain", value: `brightkettie${tag}.co.uk`, field: "evidence.website" }]) });
    expect(risk.level).toBe("high");
    const hit = risk.signals.find((s) => s.code === "verified_domain")!;
    expect(hit.message).toContain("look-alike");
    expect(hit.message).toContain(`brightkettle${tag}.co.uk`);
    // The organisation's own values raise nothing about itself; an unrelated domain raises nothing.
    const own = await assessRisk(db, { accountId: orgId, values: plainValues([{ kind: "domain", value: `brightkettle${tag}.co.uk`, field: "d" }]) });
    expect(own.signals.map((s) => s.code)).not.toContain("verified_domain");
    const other = await assessRisk(db, { accountId: c.accountId, values: plainValues([{ kind: "domain", value: `quietharbour${tag}.com`, field: "d" }]) });
    expect(other.signals.map((s) => s.code)).not.toContain("verified_domain");
    expect(other.signals.map((s) => s.code)).toContain("new_account");
  });

  it("mixed scripts and a payee on record for another account are high", async () => {
    expect(isMixedScript("Brightkettle")).toBe(false);
    expect(isMixedScript("Brightkеttle")).toBe(true); // a Cyrillic е
    const owner = await customer("payee");
    const id = await walletRecord(owner.auth);
    const [row] = await db.select().from(records).where(eq(records.id, id));
    const c = await customer("copy");
    const risk = await assessRisk(db, { accountId: c.accountId, values: [{ kind: "wallet", key: row!.subject.toLowerCase(), skeleton: null, value: row!.subject, field: "evidence.payee" }] });
    expect(risk.signals.find((s) => s.code === "payee_elsewhere")?.message).toContain(owner.accountId);
  });

  it("a high-risk live submission needs two different reviewers; the first approval issues nothing", async () => {
    const [a, b] = [await newReviewer("a"), await newReviewer("b")];
    const tag = randomBytes(3).toString("hex");
    const legal = `Harbour Lights ${tag} Trading`;
    await verifiedOrganisation(legal);
    // A second account calling itself by a look-alike of the verified name.
    const c = await customer("namesake", legal.replace("Lights", "Llghts"));
    const sub = await create(c.auth, {
      subject: legal, claim_type: "tourism_licence", claim: `${legal} holds licence HPI/9.`,
      source_name: "Malta Tourism Authority register", source_url: "https://mta.example.gov/licences/HPI-9", checked_at: new Date().toISOString(),
      evidence: { licence: { authority: "Malta Tourism Authority", number: "HPI/9" } },
    });
    expect(sub.status).toBe(202);
    const id = sub.body.verification_id as string;
    const checklist = checklistFor("tourism_licence", {}).map((i) => i.key);
    const first = await decideSubmission(db, a, id, { decision: "approve", checklist });
    expect(first.status).toBe("pending_review");
    expect((await db.select().from(records).where(eq(records.id, id)))[0]!.reviewReason).toMatch(/second reviewer/);
    expect(await code(decideSubmission(db, a, id, { decision: "approve", checklist }))).toBe("second_reviewer_required");
    const issued = await decideSubmission(db, b, id, { decision: "approve", checklist });
    expect(issued.status).toBe("active");
    const trail = (await listAudit(db, { accountId: c.accountId })).filter((e) => e.subjectId === id);
    expect(trail.map((e) => [e.action, e.staffAccountId])).toEqual([["submission.approve", b.id], ["submission.approve_first", a.id]]);
    expect(trail[1]!.after).toMatchObject({ high_risk: expect.arrayContaining(["verified_name"]) });
    // The owner is told of the approval: event and mail.
    const mails = await mailsTo(await emailOf(c.accountId));
    expect(mails.map((m) => m.subject)).toContain(`Your submission ${id} was approved`);
  });
});

describe("reports and the audit trail", () => {
  it("the reporter hears the outcome (a fixed subject, nothing anyone typed but staff's public reason); the trail is append-only", async () => {
    const staff = await newReviewer();
    const c = await customer("reported");
    const id = await walletRecord(c.auth);
    const contact = uniqueEmail("reporter");
    const rep = await reportProblem(db, id, { message: "=HYPERLINK(\"http://evil.test\") this is not us", contact }, "203.0.113.7");
    expect(rep.ok, JSON.stringify(rep)).toBe(true);
    const reportId = rep.ok ? rep.id : "";
    await staffAction(db, { accountId: staff.id, role: "reviewer" }, id, { operation: "suspend", reason: "Reported as an impersonation.", report_id: reportId });
    const [mail] = await mailsTo(contact);
    expect(mail!.subject).toBe(`Your report ${reportId} about a Proof Records certificate`);
    expect(mail!.text).toContain("suspended the record");
    expect(mail!.text).toContain("Reported as an impersonation.");
    expect(mail!.text).not.toContain("HYPERLINK");
    const owner = await mailsTo(await emailOf(c.accountId));
    expect(owner.map((m) => m.subject)).toContain(`Your record ${id} was suspended by Proof Records`);

    const trail = await listAudit(db, { accountId: c.accountId });
    expect(trail.map((e) => e.action)).toEqual(expect.arrayContaining(["record.suspend", "report.close"]));
    const entry = trail.find((e) => e.action === "record.suspend")!;
    expect(entry).toMatchObject({ staffAccountId: staff.id, reason: "Reported as an impersonation.", before: { status: "active" }, after: { status: "suspended" } });
    await expect(db.execute(sql`update staff_audit set reason = 'x' where seq = ${entry.seq}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from staff_audit where seq = ${entry.seq}`)).rejects.toThrow();
    expect((await db.select().from(staffAudit).where(eq(staffAudit.seq, entry.seq)))[0]!.reason).toBe("Reported as an impersonation.");
    // Closing a report without acting tells the reporter too; CSV cells a spreadsheet would run are defused.
    const rep2 = await reportProblem(db, id, { message: "still wrong", contact }, "203.0.113.8");
    expect(await closeReport(db, staff.id, rep2.ok ? rep2.id : "")).toBe(true);
    expect((await mailsTo(contact)).map((m) => m.text).some((t) => t.includes("left the record as it is"))).toBe(true);
    const row = auditCsvRow({ ...entry, reason: "=1+1" });
    expect(row[8]).toBe("'=1+1");
  });
});
