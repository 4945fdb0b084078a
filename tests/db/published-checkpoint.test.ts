import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { logCheckpoints, logCosignatures, logHead } from "@/drizzle/schema";
import { cosignerKey } from "../witness";
import { dataLayerTest } from "./setup";

/**
 * Which checkpoint the log publishes with witnesses configured (lib/tlog/published.ts): the
 * newest a quorum cosigned, kept in log_head.published_size by the integrator's refresh, so a
 * public read does not look through the checkpoints a quorum has not (yet) cosigned. Rows are
 * written straight into the tables.
 */
const witnessKey = (name: string) => ({ name, vkey: cosignerKey(name).vkey, url: "http://127.0.0.1:9/unused" });
const ws = ["w1.example/w", "w2.example/w", "w3.example/w"].map(witnessKey);

const { db } = await dataLayerTest({
  ownDatabase: "published_checkpoint",
  env: { LOG_WITNESSES: JSON.stringify(ws), LOG_WITNESS_QUORUM: "2" },
});
const { publishedCheckpoint, refreshPublished } = await import("@/lib/tlog/published");

const note = (size: number) => `example.test/log\n${size}\nroot${size}=\n\n\u2014 example.test/log sig${size}\n`;
const line = (w: number, size: number) => `\u2014 ${ws[w]!.name} cosig-${w}-${size}`;
async function cosign(w: number, size: number) {
  await db.insert(logCosignatures).values({ checkpointSize: size, witnessName: ws[w]!.name, line: line(w, size), signedAt: 1_800_000_000 + size });
}

describe("the published checkpoint with witnesses", () => {
  it("is the newest a quorum cosigned, moved on by the refresh, and found again when the stored size loses its quorum", async () => {
    // The test's own sizes, far above anything the rest of the file could write.
    const base = 9_000_000;
    await db.insert(logCheckpoints).values([1, 2, 3, 4, 5].map((i) => ({ size: base + i, rootHash: `${i}`.padStart(64, "0"), note: note(base + i) })));
    await db.update(logHead).set({ publishedSize: null }).where(eq(logHead.id, 1));
    expect(await publishedCheckpoint(db)).toBeNull(); // nothing cosigned by a quorum yet: nothing published

    await cosign(0, base + 2);
    await cosign(1, base + 2);
    await cosign(0, base + 4); // one witness only: not enough
    await cosign(0, base + 5);
    expect(await publishedCheckpoint(db)).toBeNull(); // not until the integrator's refresh
    expect(await refreshPublished(db)).toBe(base + 2);
    const p = await publishedCheckpoint(db);
    expect(p?.size).toBe(base + 2);
    expect(p?.note).toBe(`${note(base + 2)}${line(0, base + 2)}\n${line(1, base + 2)}\n`); // the log's line, then the witnesses' in list order

    await cosign(2, base + 4); // w1 and w3: quorum at +4
    expect(await refreshPublished(db)).toBe(base + 4);
    expect((await publishedCheckpoint(db))?.note).toBe(`${note(base + 4)}${line(0, base + 4)}\n${line(2, base + 4)}\n`);

    // A stored size that no longer has a quorum (as after LOG_WITNESSES changed): the read looks
    // for the newest that has, and the next refresh stores it.
    await db.update(logHead).set({ publishedSize: base + 5 }).where(eq(logHead.id, 1));
    expect((await publishedCheckpoint(db))?.size).toBe(base + 4);
    expect(await refreshPublished(db)).toBe(base + 4);
    const [head] = await db.select({ publishedSize: logHead.publishedSize }).from(logHead).where(eq(logHead.id, 1));
    expect(head?.publishedSize).toBe(base + 4);
  });
});
