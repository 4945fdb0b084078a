import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dataLayerTest, uniqueEmail } from "./setup";

// Mail goes to DATA_DIR/mail (no SMTP), where these tests read it. On PostgreSQL a database of
// its own: the test server's outbox worker would otherwise send the mail these tests queue
// (sendQueuedMail) to its own mail folder first.
const { dir, db, keyAnswer } = await dataLayerTest({ env: { SMTP_URL: undefined }, ownDatabase: "going_live" });
const { accounts, apiKeys, planRequests } = await import("@/drizzle/schema");
const { authenticateApiKey } = await import("@/lib/accounts/authenticate-api-key");
const { createAccount } = await import("@/lib/accounts/create-account");
const { ApiKeyRefused, createApiKey } = await import("@/lib/accounts/create-api-key");
const { confirmEmail, grantRole } = await import("@/lib/accounts/manage-account");
const { latestPlanRequest, listPendingPlanRequests, PlanRequestRefused, requestPlan } = await import("@/lib/accounts/plan-requests");
const { decidePlanRequest } = await import("@/lib/staff/decide-plan-request");
const { sendQueuedMail } = await import("@/lib/mail/mail-outbox");
const { runAdminCommand } = await import("@/lib/admin/commands");
const { createLoginToken } = await import("@/lib/auth/login-token");
const { confirmThroughSignupLink, redeemMagicLink, resetPassword } = await import("@/lib/auth/redeem-login-link");
const { signUp } = await import("@/lib/auth/signup");

const accountRow = async (id: string) => (await db.select().from(accounts).where(eq(accounts.id, id)))[0]!;


/** `npm run admin -- account create --email …`, the README's quick start. */
async function cliAccount() {
  const r = await runAdminCommand(db, ["account", "create", "--email", uniqueEmail("cli")]);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.result as { account_id: string; email: string; sandbox_key: string };
}

/** Every mail written to DATA_DIR/mail for `to`, as text. */
function mailsTo(to: string): string[] {
  const folder = path.join(dir, "mail");
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder).map((f) => fs.readFileSync(path.join(folder, f), "utf8")).filter((m) => m.includes(`\nTo: ${to}\n`));
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PlanRequestRefused) return e.message;
    throw e;
  }
  throw new Error("not refused");
}

describe("an account the operator created keeps what it has when its address is first proven", () => {
  it("signing in by mailed link confirms the address and keeps the CLI's sandbox key", async () => {
    const a = await cliAccount();
    expect((await accountRow(a.account_id)).createdBy).toBe("operator");
    const r = await redeemMagicLink(db, await createLoginToken(db, a.account_id, "magic_link"));
    expect(r.ok && r.account.emailConfirmedAt).toBeInstanceOf(Date);
    expect(await keyAnswer(a.sandbox_key)).toBe(a.account_id);
    const keys = await db.select().from(apiKeys).where(eq(apiKeys.accountId, a.account_id));
    expect(keys.map((k) => k.revokedAt)).toEqual([null]);
  });

  it("a reset link and the sign-up confirmation link keep it too, and set the password", async () => {
    const viaReset = await cliAccount();
    expect((await resetPassword(db, await createLoginToken(db, viaReset.account_id, "password_reset"), "the owner's password 1")).ok).toBe(true);
    expect(await keyAnswer(viaReset.sandbox_key)).toBe(viaReset.account_id);
    expect((await accountRow(viaReset.account_id)).passwordHash).not.toBeNull();

    const viaConfirm = await cliAccount();
    expect(await confirmThroughSignupLink(db, viaConfirm.account_id, "the owner's password 2")).toBe("confirmed");
    expect(await keyAnswer(viaConfirm.sandbox_key)).toBe(viaConfirm.account_id);
  });

  it("a self signed-up account is still protected: the same link revokes its sign-up key", async () => {
    const s = await signUp(db, { email: uniqueEmail("self"), password: "someone's password" });
    expect((await accountRow(s.accountId)).createdBy).toBe("signup");
    expect((await redeemMagicLink(db, await createLoginToken(db, s.accountId, "magic_link"))).ok).toBe(true);
    expect(await keyAnswer(s.sandboxKey)).toBe("api_key_revoked");
  });
});

describe("plan requests: a customer asks, an admin decides", () => {
  async function customer(opts: { confirmed: boolean }) {
    const a = await createAccount(db, { email: uniqueEmail("plan"), emailConfirmed: opts.confirmed });
    return { ...a, row: await accountRow(a.accountId) };
  }
  async function anAdmin() {
    const a = await createAccount(db, { email: uniqueEmail("admin"), emailConfirmed: true });
    await grantRole(db, a.accountId, "admin");
    return a;
  }

  it("an unconfirmed address is told to confirm first; nothing is stored", async () => {
    const c = await customer({ confirmed: false });
    expect(await refusal(requestPlan(db, c.row, { plan: "starter" }))).toMatch(/Confirm your email address first/);
    expect(await latestPlanRequest(db, c.accountId)).toBeNull();
  });

  it("refuses an unknown plan, and a second request while one is pending (also when sent at once)", async () => {
    const c = await customer({ confirmed: true });
    expect(await refusal(requestPlan(db, c.row, { plan: "enterprise" }))).toMatch(/starter or the growth/);
    expect(await refusal(requestPlan(db, c.row, { plan: "none" }))).toMatch(/starter or the growth/);
    const both = await Promise.allSettled([requestPlan(db, c.row, { plan: "starter" }), requestPlan(db, c.row, { plan: "growth" })]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = both.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(PlanRequestRefused);
    expect(await refusal(requestPlan(db, c.row, { plan: "growth" }))).toMatch(/already have a request waiting/);
    expect(await db.select().from(planRequests).where(eq(planRequests.accountId, c.accountId))).toHaveLength(1);
  });

  it("approval sets the plan, mails both sides, and the account may then create a live key", async () => {
    const boss = await anAdmin();
    const c = await customer({ confirmed: true });
    await expect(createApiKey(db, c.accountId, "live")).rejects.toBeInstanceOf(ApiKeyRefused);
    const req = await requestPlan(db, c.row, { plan: "starter", note: "invoices for our customers" });
    expect(req).toMatchObject({ status: "pending", plan: "starter" });
    expect(mailsTo(c.email).some((m) => m.includes("We received your request for the starter plan"))).toBe(true);
    const notice = mailsTo(boss.email).find((m) => m.includes(`${c.email} asks for starter`));
    expect(notice).toContain("invoices for our customers");
    expect((await listPendingPlanRequests(db)).map((r) => r.id)).toContain(req.id);

    const decided = await decidePlanRequest(db, boss.accountId, req.id, { decision: "approve" });
    expect(decided).toMatchObject({ status: "approved", decidedBy: boss.accountId, reason: null, awaitingSecondApproval: false });
    expect((await accountRow(c.accountId)).plan).toBe("starter");
    // The decision's mail is queued with it and sent by the outbox worker (here, one round of it).
    expect(mailsTo(c.email).some((m) => m.includes("Subject: Your plan request was approved"))).toBe(false);
    await sendQueuedMail(db);
    expect(mailsTo(c.email).some((m) => m.includes("Subject: Your plan request was approved") && m.includes("may now work in live"))).toBe(true);
    expect((await listPendingPlanRequests(db)).map((r) => r.id)).not.toContain(req.id);
    // Decided once: a second decision (another admin, a replayed post) changes nothing.
    expect(await refusal(decidePlanRequest(db, boss.accountId, req.id, { decision: "decline", reason: "late" }))).toMatch(/no longer pending/);
    expect((await accountRow(c.accountId)).plan).toBe("starter");

    const live = await createApiKey(db, c.accountId, "live");
    const auth = await authenticateApiKey(db, `Bearer ${live.key}`);
    expect(auth).toMatchObject({ accountId: c.accountId, environment: "live", plan: "starter" });
  });

  it("declining needs a reason, which the customer sees and is mailed; a new request may follow", async () => {
    const boss = await anAdmin();
    const c = await customer({ confirmed: true });
    const req = await requestPlan(db, c.row, { plan: "growth" });
    expect(await refusal(decidePlanRequest(db, boss.accountId, req.id, { decision: "decline", reason: "  " }))).toMatch(/reason/);
    expect((await latestPlanRequest(db, c.accountId))!.status).toBe("pending");
    await decidePlanRequest(db, boss.accountId, req.id, { decision: "decline", reason: "Tell us who you are first." });
    expect(await latestPlanRequest(db, c.accountId)).toMatchObject({ status: "declined", reason: "Tell us who you are first." });
    expect((await accountRow(c.accountId)).plan).toBe("none");
    await sendQueuedMail(db);
    expect(mailsTo(c.email).find((m) => m.includes("Subject: Your plan request was declined"))).toContain("Reason: Tell us who you are first.");
    const again = await requestPlan(db, c.row, { plan: "starter" });
    expect((await latestPlanRequest(db, c.accountId))!.id).toBe(again.id);
  });

  it("a customer confirmed later can ask then", async () => {
    const c = await customer({ confirmed: false });
    await confirmEmail(db, c.accountId);
    expect((await requestPlan(db, await accountRow(c.accountId), { plan: "starter" })).status).toBe("pending");
  });
});
