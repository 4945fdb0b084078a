import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dataLayerTest } from "./setup";

// A log of its own (private PGlite folder, or a fresh PostgreSQL database): entries, nodes and
// checkpoints are evidence, and a stored node that disagrees with the entries stops the integrator.
const { db } = await dataLayerTest({
  prefix: "prs-logao-", ownDatabase: "log_append_only",
  env: { LOG_NOTE_KEY: createHash("sha256").update("prs tests: append-only log").digest("base64") },
});
const { appendLeaves, integrate, LogConflict, latestCheckpoint } = await import("@/lib/tlog/store");
const { logNodes } = await import("@/drizzle/schema");
const { sql } = await import("drizzle-orm");

const leaf = (n: number) => ({ leaf: JSON.stringify({ test: n }), recordId: null });

describe("the transparency log's tables", () => {
  it("refuse to change or remove an entry, a node or a checkpoint", async () => {
    await appendLeaves(db, [leaf(1), leaf(2), leaf(3)]);
    const cp = await integrate(db);
    expect(cp?.size).toBe(3);
    for (const statement of [
      sql`update log_entries set leaf = 'forged' where idx = 0`,
      sql`delete from log_entries where idx = 2`,
      sql`update log_nodes set hash = 'forged' where level = 0 and idx = 0`,
      sql`delete from log_nodes where level = 1`,
      sql`update log_checkpoints set root_hash = 'forged' where size = 3`,
      sql`delete from log_checkpoints`,
    ]) {
      const refused = await db.execute(statement).then(() => null, (e: Error & { cause?: Error }) => e.cause?.message ?? e.message);
      expect(refused).toMatch(/the transparency log \(log_(entries|nodes|checkpoints)\) is append-only/);
    }
    expect((await latestCheckpoint(db))?.rootHash).toBe(cp!.rootHash);
  });

  it("a stored node that disagrees with the entries stops the integrator, which signs nothing", async () => {
    const before = await latestCheckpoint(db);
    // A node planted where the next entry's leaf hash will go, with another hash.
    await db.insert(logNodes).values({ level: 0, idx: before!.size, hash: "00".repeat(32) });
    await appendLeaves(db, [leaf(4)]);
    await expect(integrate(db)).rejects.toBeInstanceOf(LogConflict);
    await expect(integrate(db)).rejects.toThrow(/log node 0:3 is stored as 0{64}/);
    expect((await latestCheckpoint(db))?.size).toBe(before!.size); // rolled back: no checkpoint over it
  });
});
