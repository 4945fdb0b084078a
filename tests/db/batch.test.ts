import { randomBytes } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

// In-process: the batch pipeline on a private PGlite folder (or DATABASE_URL's PostgreSQL).
const { db, sandboxCustomer } = await dataLayerTest();
const { createWalletChallenge } = await import("@/lib/challenges/challenges");
const { createBatch } = await import("@/lib/records/create-batch");
const { idempotencyKeys, records, usageCounters, walletChallenges } = await import("@/drizzle/schema");
const { eq, sql } = await import("drizzle-orm");

const tag = randomBytes(4).toString("hex");
const fn = `prs_test_fail_batch_${tag}`;

beforeAll(async () => {
  // Make the very last step of a batch — storing its answer under the key — fail for keys
  // starting with "boom-<tag>": by then every row has been metered, its challenge used and
  // its record inserted, in the same transaction.
  await db.execute(sql.raw(`create function ${fn}() returns trigger language plpgsql as $$
    begin
      if new.key like 'boom-${tag}%' and new.state = 'done' then raise exception 'simulated crash'; end if;
      return new;
    end $$`));
  await db.execute(sql.raw(`create trigger ${fn} before update on idempotency_keys for each row execute function ${fn}()`));
});
afterAll(async () => {
  await db.execute(sql.raw(`drop trigger if exists ${fn} on idempotency_keys`));
  await db.execute(sql.raw(`drop function if exists ${fn}()`));
});

async function liveAuth() {
  const { auth } = await sandboxCustomer({ tag: "b" });
  return { ...auth, environment: "live" as const, plan: "growth" as const };
}

describe("a batch is one transaction", () => {
  it("leaves nothing behind when it fails at the very end: no records, no usage, challenges unused, key free", async () => {
    const auth = await liveAuth();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const c = await createWalletChallenge(db, auth, { address: wallet.address, network: "ethereum" });
    const signature = await wallet.signMessage({ message: c.message });
    const body = {
      records: [
        { subject: "One Ltd", claim_type: "company_status", claim: "One Ltd is active." },
        { subject: wallet.address, claim_type: "wallet_ownership", claim: "Controls it.", evidence: { challenge_id: c.id, signature } },
        { subject: "Two Ltd", claim_type: "company_status", claim: "Two Ltd is active." },
      ],
    };
    const err = await createBatch(db, auth, body, `boom-${tag}-1`).then(() => null, (e: Error) => e);
    expect(`${err?.message} ${(err?.cause as Error | undefined)?.message}`).toContain("simulated crash");
    expect(await db.select().from(records).where(eq(records.accountId, auth.accountId))).toEqual([]);
    expect(await db.select().from(usageCounters).where(eq(usageCounters.accountId, auth.accountId))).toEqual([]);
    const [ch] = await db.select().from(walletChallenges).where(eq(walletChallenges.id, c.id));
    expect(ch!.usedAt).toBeNull();
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, `boom-${tag}-1`))).toEqual([]);

    // The same rows under a key that does not fail: all three issue, metered and used once.
    const ok = await createBatch(db, auth, body, `fine-${tag}-1`);
    const answer = JSON.parse(ok.bodyJson);
    expect(answer.totals).toEqual({ issued: 3, existing: 0, pending_review: 0, failed: 0 });
    expect(await db.select().from(records).where(eq(records.accountId, auth.accountId))).toHaveLength(3);
    const [usage] = await db.select().from(usageCounters).where(eq(usageCounters.accountId, auth.accountId));
    expect(usage!.count).toBe(3);
    const [used] = await db.select().from(walletChallenges).where(eq(walletChallenges.id, c.id));
    expect(used!.usedByRecord).toBe(answer.results[1].verification_id);
  });
});
