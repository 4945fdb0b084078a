import { describe, expect, it } from "vitest";
import { dataLayerTest, testClaimType } from "./setup";

/*
 * Re-checks: live records first, sandbox records on a budget of their own — a free account's
 * thousands of due sandbox records never take a live record's turn.
 */
const { db, liveCustomer, sandboxCustomer, create } = await dataLayerTest({ prefix: "prs-recheck-", ownDatabase: "recheck_budget" });
const { registerClaimType } = await import("@/lib/claims/registry");
const { recheckRecords } = await import("@/lib/records/recheck-records");
const { records } = await import("@/drizzle/schema");
const { eq, inArray } = await import("drizzle-orm");

const TYPE = "test_monitored";
const asked: string[] = [];
registerClaimType(testClaimType(TYPE, {
  async check(input) {
    return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: input.evidence ?? {} };
  },
  policy: {
    recheck: {
      kind: "monitor",
      intervalMs: () => 3600_000,
      async run(evidence) {
        asked.push(String(evidence.env));
        return { kind: "holds" };
      },
    },
  },
}));

type Auth = Awaited<ReturnType<typeof sandboxCustomer>>["auth"];
const issue = async (auth: Auth, env: string) => {
  const r = await create(auth, { claim: "x", claim_type: TYPE, subject: `s-${env}`, evidence: { env } });
  expect(r.status).toBe(201);
  return r.body.verification_id as string;
};

describe("re-checks", () => {
  it("take every due live record before any sandbox record, and sandbox ones only up to their own budget", async () => {
    const sandbox = await sandboxCustomer({ tag: "rc" });
    const live = await liveCustomer({ tag: "rc" });
    const sandboxIds: string[] = [];
    for (let i = 0; i < 60; i++) sandboxIds.push(await issue(sandbox.auth, "sandbox"));
    const liveIds = [await issue(live.auth, "live"), await issue(live.auth, "live"), await issue(live.auth, "live")];
    // All due; every sandbox record longer overdue than any live one.
    await db.update(records).set({ recheckAt: new Date(Date.now() - 3600_000) }).where(inArray(records.id, sandboxIds));
    await db.update(records).set({ recheckAt: new Date(Date.now() - 60_000) }).where(inArray(records.id, liveIds));

    const round = await recheckRecords(db, { live: 50, sandbox: 10 });
    expect(asked.filter((e) => e === "live")).toHaveLength(3);
    expect(asked.filter((e) => e === "sandbox")).toHaveLength(10);
    expect(round.checked).toBe(13);
    for (const id of liveIds) {
      const [row] = await db.select({ recheckAt: records.recheckAt }).from(records).where(eq(records.id, id));
      expect(row!.recheckAt!.getTime()).toBeGreaterThan(Date.now()); // re-checked: next time in the future
    }
    // The next rounds work through the sandbox backlog, ten at a time.
    await recheckRecords(db, { live: 50, sandbox: 10 });
    expect(asked.filter((e) => e === "sandbox")).toHaveLength(20);
  });

  it("the sweep's one read (whatIsDue) says a part is due exactly when its worker would find work", async () => {
    const { whatIsDue } = await import("@/lib/server/sweep");
    const { expireDueRecords } = await import("@/lib/records/expire-records");
    const { organisations } = await import("@/drizzle/schema");
    while ((await recheckRecords(db, { live: 500, sandbox: 500 })).checked > 0); // the backlog above, worked through
    expect(await whatIsDue(db)).toEqual({ expiry: false, stale: false, recheck: false, organisations: false });

    const live = await liveCustomer({ tag: "due" });
    const id = await issue(live.auth, "live");
    expect((await whatIsDue(db)).recheck).toBe(false); // its next re-check is an hour away
    await db.update(records).set({ recheckAt: new Date(Date.now() - 1000) }).where(eq(records.id, id));
    expect((await whatIsDue(db)).recheck).toBe(true);
    // Suspended by someone other than the re-check (its last history entry is not the re-check's): not the sweep's to ask.
    await db.update(records).set({ status: "suspended" }).where(eq(records.id, id));
    expect((await whatIsDue(db)).recheck).toBe(false);
    await db.update(records).set({ status: "active" }).where(eq(records.id, id));
    expect((await recheckRecords(db, { live: 50, sandbox: 10 })).checked).toBe(1);
    expect((await whatIsDue(db)).recheck).toBe(false);

    await db.update(records).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(records.id, id));
    expect((await whatIsDue(db)).expiry).toBe(true);
    expect(await expireDueRecords(db)).toBe(1);
    expect((await whatIsDue(db)).expiry).toBe(false);

    // A submission of a type that closes stale ones (the exchange trades: after 24 hours), two days old.
    await db.update(records).set({ claimType: "exchange_verified_trade", status: "pending_review", createdAt: new Date(Date.now() - 2 * 86_400_000) }).where(eq(records.id, id));
    expect((await whatIsDue(db)).stale).toBe(true);
    await db.update(records).set({ createdAt: new Date() }).where(eq(records.id, id));
    expect((await whatIsDue(db)).stale).toBe(false);

    // A verified organisation with an LEI never checked against the register, then just checked.
    await db.insert(organisations).values({ accountId: live.accountId, legalName: "Due Ltd", nameKey: "due", lei: "5493001KJTIIGC8Y1R12", basis: "lei_register", verifiedAt: new Date() });
    expect((await whatIsDue(db)).organisations).toBe(true);
    await db.update(organisations).set({ checkedAt: new Date() }).where(eq(organisations.accountId, live.accountId));
    expect(await whatIsDue(db)).toEqual({ expiry: false, stale: false, recheck: false, organisations: false });
  });
});
