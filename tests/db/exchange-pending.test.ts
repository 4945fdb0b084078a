import net from "node:net";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

/*
 * An exchange trade submission that waits because the exchange did not answer kept no
 * credentials: a reviewer cannot approve it (nothing can be confirmed), and the sweep closes
 * it 24 hours after it was made (moved back in the database: the clock the sweep reads).
 */
const dead = net.createServer((s) => s.destroy());
await new Promise<void>((r) => dead.listen(0, "127.0.0.1", r));
const { db, sandboxCustomer, reviewer: newReviewer } = await dataLayerTest({
  prefix: "prs-xpend-", env: { EXCHANGE_TESTNET_URL: `http://127.0.0.1:${(dead.address() as net.AddressInfo).port}`, EXCHANGE_TIMEOUT_MS: "300" },
});
const { records } = await import("@/drizzle/schema");
const { createRecord } = await import("@/lib/records/create-record");
const { decideSubmission } = await import("@/lib/reviews/decide-submission");
const { closeStaleSubmissions } = await import("@/lib/records/expire-records");

afterAll(() => {
  dead.close();
});

describe("a pending exchange trade submission", () => {
  it("cannot be approved, and is closed 24 h after it was made", async () => {
    const { auth } = await sandboxCustomer({ tag: "x", confirmed: true });
    const reviewer = await newReviewer("r");
    const res = await createRecord(db, auth, {
      subject: "BTCUSDT", claim_type: "exchange_verified_trade_test", claim: "A trade.",
      evidence: { environment: "testnet", api_key: "PRSXSECRETk", api_secret: "PRSXSECRETs", category: "linear", order_id: "o1", start_time: "2026-11-19T00:00:00Z", end_time: "2026-11-20T00:00:00Z" },
    } as never, randomUUID());
    expect(res.status).toBe(202);
    expect(res.bodyJson).not.toContain("PRSXSECRET");
    const id = JSON.parse(res.bodyJson).verification_id as string;
    await expect(decideSubmission(db, reviewer, id, { decision: "approve", checklist: ["source_opened", "subject_matches", "claim_supported", "checked_at_plausible"] }))
      .rejects.toMatchObject({ code: "review_precondition_failed" });

    expect(await closeStaleSubmissions(db)).toBe(0);
    await db.update(records).set({ createdAt: sql`now() - interval '24 hours 1 minute'` }).where(eq(records.id, id));
    expect(await closeStaleSubmissions(db)).toBe(1);
    const [row] = await db.select().from(records).where(eq(records.id, id));
    expect(row).toMatchObject({ status: "rejected", reviewReason: expect.stringContaining("Closed after 24 hours") });
    expect(JSON.stringify(row)).not.toContain("PRSXSECRET");
  });
});
