import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { badgeSightings, events } from "@/drizzle/schema";
import { dataLayerTest } from "./setup";

// In-process: two instances' rounds flushing the same new sightings at once (on PostgreSQL,
// concurrent transactions on the pool; on PGlite, one after the other).
const { db, sandboxCustomer, liveCustomer, create } = await dataLayerTest({ ownDatabase: "sightings" });
const { addSightings } = await import("@/lib/public/embed/sightings/flush-sightings");
const { noteBadgeRequest, takeSightings, MAX_PENDING } = await import("@/lib/public/embed/sightings/sighting-counter");
const { HOSTS_PER_RECORD, REPORTS_PER_DAY } = await import("@/lib/public/embed/sightings/flush-sightings");

async function record() {
  const { auth } = await sandboxCustomer({ tag: "sight" });
  const r = await create(auth, { subject: "Acme Trading Ltd", claim_type: "company_status", claim: "Acme is active.", visibility: "public" });
  expect(r.status).toBe(201);
  return r.body.verification_id as string;
}

const at = (s: number) => new Date(Date.UTC(2026, 10, 26, 12, 0, s));

describe("badge sightings flush", () => {
  it("two instances flushing the same new uncovered host add their counts and report it once", async () => {
    const ids = [await record(), await record()];
    const round = (n: number, s: number) => ids.flatMap((recordId) => ["a.imposter.example", "b.imposter.example"].map((host) => ({ recordId, host, count: n, firstSeen: at(s), lastSeen: at(s + 1) })));
    const [r1, r2] = await Promise.all([addSightings(db, round(2, 0), at(5)), addSightings(db, round(3, 2), at(5))]);
    expect(r1.written + r2.written).toBe(8);
    expect(r1.reported + r2.reported).toBe(4);
    await addSightings(db, round(1, 10), at(20)); // a later round: counted, not reported again
    for (const id of ids) {
      const rows = await db.select().from(badgeSightings).where(eq(badgeSightings.recordId, id));
      expect(rows.map((r) => [r.host, r.count, r.covered]).sort()).toEqual([["a.imposter.example", 6, "no"], ["b.imposter.example", 6, "no"]]);
      for (const r of rows) {
        expect(r.firstSeenAt.toISOString()).toBe(at(0).toISOString());
        expect(r.lastSeenAt.toISOString()).toBe(at(11).toISOString());
        expect(r.reportedAt?.toISOString()).toBe(at(5).toISOString());
      }
      const evs = await db.select().from(events).where(and(eq(events.recordId, id), eq(events.type, "badge.seen_elsewhere")));
      expect(evs.map((e) => (JSON.parse(e.payload) as { data: { host: string } }).data.host).sort()).toEqual(["a.imposter.example", "b.imposter.example"]);
    }
  });

  it("mails a live record's owner about at most three new hosts a day; every host still gets its event", async () => {
    const { auth } = await liveCustomer({ tag: "sightmail" });
    const r = await create(auth, { subject: "Acme Trading Ltd", claim_type: "company_status", claim: "Acme is active.", visibility: "public" });
    expect(r.status).toBe(201);
    const id = r.body.verification_id as string;
    const hosts = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ recordId: id, host: `h${from + i}.flood.example`, count: 1, firstSeen: at(0), lastSeen: at(0) }));
    expect(await addSightings(db, hosts(2, 0), at(1))).toEqual({ written: 2, reported: 2, mailed: 2 });
    expect(await addSightings(db, hosts(4, 2), at(2))).toEqual({ written: 4, reported: 4, mailed: 1 });
    // A day later: mails again.
    expect(await addSightings(db, hosts(1, 6), new Date(at(2).getTime() + 86_400_000 + 1000))).toEqual({ written: 1, reported: 1, mailed: 1 });
    const evs = await db.select().from(events).where(and(eq(events.recordId, id), eq(events.type, "badge.seen_elsewhere")));
    expect(evs).toHaveLength(7);
  });

  it("a flood of made-up hosts for one record: at most HOSTS_PER_RECORD stored and REPORTS_PER_DAY reported a day; known hosts still counted", async () => {
    const id = await record();
    const hosts = (n: number, from: number, s = 0) => Array.from({ length: n }, (_, i) => ({ recordId: id, host: `f${from + i}.flood.example`, count: 1, firstSeen: at(s), lastSeen: at(s) }));
    const first = await addSightings(db, hosts(HOSTS_PER_RECORD - 10, 0), at(1));
    expect(first.written).toBe(HOSTS_PER_RECORD - 10);
    expect(first.reported).toBe(REPORTS_PER_DAY);
    const second = await addSightings(db, [...hosts(30, HOSTS_PER_RECORD - 10, 2), ...hosts(1, 0, 2)], at(3)); // 10 fit, 20 do not; f0 is known
    expect(second.written).toBe(11);
    expect(second.reported).toBe(0); // the day's reports are used up
    const rows = await db.select().from(badgeSightings).where(eq(badgeSightings.recordId, id));
    expect(rows).toHaveLength(HOSTS_PER_RECORD);
    expect(rows.find((r) => r.host === "f0.flood.example")?.count).toBe(2);
    expect(rows.filter((r) => r.reportedAt !== null)).toHaveLength(REPORTS_PER_DAY);
    const evs = await db.select().from(events).where(and(eq(events.recordId, id), eq(events.type, "badge.seen_elsewhere")));
    expect(evs).toHaveLength(REPORTS_PER_DAY);
    // A day later, a host seen again that was never reported is reported then.
    const unreported = rows.find((r) => r.reportedAt === null)!;
    const later = await addSightings(db, [{ recordId: id, host: unreported.host, count: 1, firstSeen: at(0), lastSeen: at(0) }], new Date(at(1).getTime() + 86_400_000 + 1000));
    expect(later).toMatchObject({ written: 1, reported: 1 });
  });

  it("a sighting of an id that is no record is dropped without failing the round", async () => {
    const id = await record();
    const r = await addSightings(db, [
      { recordId: `PRS-${"0".repeat(20)}`, host: "x.example", count: 1, firstSeen: at(0), lastSeen: at(0) },
      { recordId: id, host: "x.example", count: 1, firstSeen: at(0), lastSeen: at(0) },
    ], at(1));
    expect(r).toEqual({ written: 1, reported: 1, mailed: 0 }); // sandbox: no mail
  });

  it("the counter keeps at most MAX_PENDING pairs; further new pairs are dropped and counted, known ones still counted", () => {
    takeSightings();
    const base = "https://svc.example";
    for (let i = 0; i < MAX_PENDING + 5; i++) noteBadgeRequest(`PRS-${String(i).padStart(20, "0")}`, `https://h${i}.example`, base);
    noteBadgeRequest(`PRS-${"0".repeat(20)}`, "https://h0.example", base);
    const { pending, dropped } = takeSightings();
    expect(pending).toHaveLength(MAX_PENDING);
    expect(dropped).toBe(5);
    expect(pending.find((p) => p.host === "h0.example")?.count).toBe(2);
    // Own origin, odd values: nothing.
    for (const o of [null, "null", base, "https://svc.example/", "ws://a.example", "https://a.example/x", "http://ä.example"]) noteBadgeRequest("PRS-X", o, base);
    expect(takeSightings().pending).toEqual([]);
  });
});
