import { describe, expect, it } from "vitest";
import { admin, call, companyStatus, issue, newAccount, newLiveAccount } from "../helpers";
import { inOneUsageMonth } from "../usage-month";

// The test server runs with PLAN_LIMITS={"starter":{"live_records":3}}.
const usage = async (key: string) => (await call("GET", "/api/v1/usage", { key })).body;

describe("plans and metering", () => {
  it("refuses live keys without a confirmed email or without a plan", async () => {
    const a = await newAccount();
    await expect(admin("key", "create", "--account", a.accountId, "--env", "live")).rejects.toThrow(/email_not_confirmed/);
    await admin("account", "confirm-email", "--account", a.accountId);
    await expect(admin("key", "create", "--account", a.accountId, "--env", "live")).rejects.toThrow(/plan_inactive/);
    await admin("plan", "set", "--account", a.accountId, "--plan", "starter");
    const k = await admin("key", "create", "--account", a.accountId, "--env", "live");
    expect(k.key).toMatch(/^prs_live_[0-9A-Za-z]{32}$/);
  });

  it("counts live issuance against the monthly allowance and answers 402 past it, writing nothing", () => inOneUsageMonth(async () => {
    const acct = await newLiveAccount("starter");
    expect(await usage(acct.liveKey)).toMatchObject({ plan: "starter", live_records: { used: 0, allowance: 3 } });
    for (let i = 0; i < 3; i++) {
      const rec = await issue(acct.liveKey, { subject: `Live ${i}` });
      expect(rec.environment).toBe("live");
    }
    const over = await call("POST", "/api/v1/records", { key: acct.liveKey, body: companyStatus({ subject: "One too many" }) });
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ type: "payment_required", code: "plan_limit_reached" });
    expect((await usage(acct.liveKey)).live_records.used).toBe(3);
    const list = await call("GET", "/api/v1/records", { key: acct.liveKey });
    expect(list.body.data).toHaveLength(3);
  }));

  // PostgreSQL only: on PGlite the server's one connection runs the six metering transactions
  // one after another, which is the sequential allowance test above.
  it.skipIf(!process.env.DATABASE_URL)("six concurrent live creates on an allowance of 3: exactly 3 issued, 3 refused with 402 plan_limit_reached", () => inOneUsageMonth(async () => {
    const acct = await newLiveAccount("starter");
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      call("POST", "/api/v1/records", { key: acct.liveKey, body: companyStatus({ subject: `Race ${i} Ltd` }) })));
    expect(results.map((r) => r.status).sort(), results.map((r) => r.body?.error?.code ?? r.body?.status).join(", ")).toEqual([201, 201, 201, 402, 402, 402]);
    for (const r of results.filter((x) => x.status === 402)) {
      expect(r.body.error).toMatchObject({ type: "payment_required", code: "plan_limit_reached" });
    }
    const issued = results.filter((r) => r.status === 201).map((r) => r.body.verification_id as string);
    expect((await usage(acct.liveKey)).live_records).toEqual({ used: 3, allowance: 3 });
    const list = await call("GET", "/api/v1/records", { key: acct.liveKey });
    expect(list.body.data.map((r: any) => r.verification_id).sort()).toEqual([...issued].sort());
    // Still refused afterwards: the allowance is used up, not merely contended.
    expect((await call("POST", "/api/v1/records", { key: acct.liveKey, body: companyStatus() })).status).toBe(402);
  }));

  it("never counts sandbox work, status reads or replays", () => inOneUsageMonth(async () => {
    const acct = await newLiveAccount("starter");
    for (let i = 0; i < 5; i++) await issue(acct.sandboxKey, { subject: `Sandbox ${i}` });
    const idem = `live-once-${acct.accountId}`; // fresh if the test runs again in a new month
    const live = await call("POST", "/api/v1/records", { key: acct.liveKey, body: companyStatus(), idem });
    expect(live.status).toBe(201);
    const replay = await call("POST", "/api/v1/records", { key: acct.liveKey, body: companyStatus(), idem });
    expect(replay.status).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await call("GET", `/api/v1/records/${live.body.verification_id}/status`)).status).toBe(200);
    }
    expect((await usage(acct.liveKey)).live_records.used).toBe(1);
    expect((await usage(acct.sandboxKey)).live_records.used).toBe(1);
  }));

  it("answers 402 plan_inactive for live work once the plan is removed; sandbox goes on", async () => {
    const acct = await newLiveAccount("growth");
    await admin("plan", "set", "--account", acct.accountId, "--plan", "none");
    const r = await call("POST", "/api/v1/records", { key: acct.liveKey, body: companyStatus() });
    expect(r.status).toBe(402);
    expect(r.body.error.code).toBe("plan_inactive");
    expect((await call("POST", "/api/v1/records", { key: acct.sandboxKey, body: companyStatus() })).status).toBe(201);
  });

  it("marks only live, active, checked records as verified; participant_attested never is", async () => {
    const acct = await newLiveAccount();
    const rec = await issue(acct.liveKey);
    expect(rec).toMatchObject({ environment: "live", evidence_level: "participant_attested", verified: false });
    const page = await call("GET", `/r/${rec.verification_id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Sandbox — not verified");
    expect(page.text).toContain("Not verified");
  });
});
