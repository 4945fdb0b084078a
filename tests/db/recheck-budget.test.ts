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
    monitor: {
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
});
