import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { accounts, badgeSightings, records } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log/logger";
import { sendMail } from "@/lib/mail/send-mail";
import { writeEvent } from "@/lib/outbox/write-event";
import { loadPublicViews } from "@/lib/public/record/public-view";
import { serializeRecord } from "@/lib/public/record/serialize-record";
import { recordUrls } from "@/lib/record-model/urls";
import { coveredHosts, hostCovered } from "./covered-hosts";
import { restoreSightings, takeSightings, type Pending } from "./sighting-counter";

/** Sightings written per transaction. */
const BATCH = 500;
/** New uncovered hosts per record mailed to its owner in 24 hours, at most. */
const MAILS_PER_DAY = 3;
/**
 * New uncovered hosts per record reported (`badge.seen_elsewhere`) in 24 hours, at most; one
 * beyond stays unreported (reported_at null) and is reported when it is seen again later.
 */
export const REPORTS_PER_DAY = 50;
/** Hosts kept per record, at most: a host beyond is not stored (its loads are not counted). */
export const HOSTS_PER_RECORD = 1000;
const DAY_MS = 86_400_000;

type Reported = { email: string; recordId: string; environment: "live" | "sandbox"; host: string; covers: string[] };

/**
 * Add this process's counted sightings to `badge_sightings`, BATCH pairs per transaction. Counts
 * add up (several instances flush the same pairs); `covered` is judged again each time from the
 * record as it is now. The first time an uncovered (record, host) pair is stored, the same
 * transaction sets its `reported_at` and writes one `badge.seen_elsewhere` event to the record's
 * owner: the update only takes a row whose `reported_at` is still null, so of two instances
 * flushing the same new pair, one reports it. Live records' owners are also mailed (after the
 * commit; a failed mail is logged). A failed batch is put back to be tried on the next round.
 * Returns how many pairs were written, how many reported and how many of those mailed.
 */
export async function flushSightings(db: Db, now = new Date()): Promise<{ written: number; reported: number; mailed: number }> {
  const { pending, dropped } = takeSightings();
  if (dropped > 0) log().warn({ dropped }, "badge sightings: the counter was full; new hosts were not noted this round");
  return addSightings(db, pending, now);
}

/** Add counted sightings (one instance's round) to the table and report new uncovered hosts: flushSightings without the counter. */
export async function addSightings(db: Db, pending: readonly Pending[], now = new Date()): Promise<{ written: number; reported: number; mailed: number }> {
  let written = 0;
  let reported = 0;
  const mails: Reported[] = [];
  for (let i = 0; i < pending.length; i += BATCH) {
    const batch = pending.slice(i, i + BATCH);
    try {
      const r = await flushBatch(db, batch, now);
      written += r.written;
      reported += r.events;
      mails.push(...r.reported);
    } catch (e) {
      restoreSightings(pending.slice(i));
      log().error({ err: e }, "badge sightings: writing counts failed; kept for the next round");
      break;
    }
  }
  const live = mails.filter((r) => r.environment === "live");
  for (const m of live) {
    await sendMail({
      to: m.email,
      subject: `Your Proof Records badge for ${m.recordId} is shown on ${m.host}`,
      text:
        `The embed badge of your record ${m.recordId} was loaded on a page at ${m.host}, a site the record does not cover` +
        (m.covers.length ? ` (it covers exactly ${m.covers.join(", ")}).` : " (it names no website).") +
        `\n\nIf that site is not yours, someone may be showing your record to look like you. Visitors who follow the badge\n` +
        `to the certificate are told which site they came from and which sites the record is about.\n\n` +
        `Certificate: ${recordUrls(m.recordId).certificate_url}\n` +
        `Every host your badges appeared on: the portal's "Where your badges appear" page, or GET /api/v1/badge-sightings.\n`,
    }).catch((err) => log().error({ err }, "badge sightings: could not send the owner's mail"));
  }
  return { written, reported, mailed: live.length };
}

async function flushBatch(db: Db, batch: readonly Pending[], now: Date): Promise<{ written: number; events: number; reported: Reported[] }> {
  const ids = [...new Set(batch.map((p) => p.recordId))];
  return db.transaction(async (tx) => {
    const rows = await tx.select().from(records).where(inArray(records.id, ids));
    const views = new Map((await loadPublicViews(tx, rows, now.getTime())).map((v) => [v.row.id, v]));
    const covers = new Map([...views].map(([id, v]) => [id, coveredHosts(v)]));
    const values = batch
      .filter((p) => views.has(p.recordId))
      .map((p) => ({
        recordId: p.recordId, host: p.host, count: p.count, covered: hostCovered(p.host, covers.get(p.recordId)!) ? ("yes" as const) : ("no" as const),
        firstSeenAt: p.firstSeen, lastSeenAt: p.lastSeen,
      }))
      // One order on every instance: two flushes of the same pairs lock their rows in the same order (no deadlock).
      .sort((a, b) => (a.recordId === b.recordId ? (a.host < b.host ? -1 : 1) : a.recordId < b.recordId ? -1 : 1));
    if (values.length === 0) return { written: 0, events: 0, reported: [] };
    // `Origin` is a header any script can make up: a record keeps at most HOSTS_PER_RECORD hosts,
    // so a flood of invented hosts cannot grow the table without bound.
    const stored = await tx.select({ recordId: badgeSightings.recordId, host: badgeSightings.host }).from(badgeSightings)
      .where(and(inArray(badgeSightings.recordId, [...covers.keys()]), inArray(badgeSightings.host, [...new Set(values.map((v) => v.host))])));
    const known = new Set(stored.map((r) => `${r.recordId} ${r.host}`));
    const room = new Map<string, number>();
    for (const r of await tx.select({ recordId: badgeSightings.recordId, n: sql<number>`count(*)::int` }).from(badgeSightings)
      .where(inArray(badgeSightings.recordId, [...covers.keys()])).groupBy(badgeSightings.recordId)) room.set(r.recordId, HOSTS_PER_RECORD - Number(r.n));
    const kept = values.filter((v) => {
      if (known.has(`${v.recordId} ${v.host}`)) return true;
      const left = room.get(v.recordId) ?? HOSTS_PER_RECORD;
      room.set(v.recordId, left - 1);
      return left > 0;
    });
    if (kept.length < values.length) log().warn({ dropped: values.length - kept.length }, "badge sightings: records at their host limit; new hosts not stored");
    values.splice(0, values.length, ...kept);
    if (values.length === 0) return { written: 0, events: 0, reported: [] };
    await tx.insert(badgeSightings).values(values).onConflictDoUpdate({
      target: [badgeSightings.recordId, badgeSightings.host],
      set: {
        count: sql`${badgeSightings.count} + excluded.count`,
        covered: sql`excluded.covered`,
        firstSeenAt: sql`least(${badgeSightings.firstSeenAt}, excluded.created_at)`,
        lastSeenAt: sql`greatest(${badgeSightings.lastSeenAt}, excluded.last_seen_at)`,
      },
    });
    const reported: Reported[] = [];
    let events = 0;
    for (const v of values.filter((x) => x.covered === "no")) {
      const [recent] = await tx.select({ n: sql<number>`count(*)::int` }).from(badgeSightings)
        .where(and(eq(badgeSightings.recordId, v.recordId), gt(badgeSightings.reportedAt, new Date(now.getTime() - DAY_MS))));
      if ((recent?.n ?? 0) >= REPORTS_PER_DAY) continue; // reported when seen again, once the day's reports allow
      const [taken] = await tx.update(badgeSightings).set({ reportedAt: now })
        .where(and(eq(badgeSightings.recordId, v.recordId), eq(badgeSightings.host, v.host), eq(badgeSightings.covered, "no"), isNull(badgeSightings.reportedAt)))
        .returning({ firstSeenAt: badgeSightings.firstSeenAt });
      if (!taken) continue;
      events += 1;
      const view = views.get(v.recordId)!;
      await writeEvent(tx, {
        accountId: view.row.accountId, environment: view.row.environment, type: "badge.seen_elsewhere", at: now,
        data: { record: serializeRecord(view), host: v.host, first_seen_at: taken.firstSeenAt.toISOString(), covers: covers.get(v.recordId)! },
      });
      // Mail at most MAILS_PER_DAY new hosts per record a day: `Origin` is only a header, and a script
      // sending made-up ones must not flood the owner's inbox (the events and the list still have them all).
      if ((recent?.n ?? 0) >= MAILS_PER_DAY) continue; // counted before this one was reported
      const [owner] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, view.row.accountId));
      if (owner) reported.push({ email: owner.email, recordId: v.recordId, environment: view.row.environment, host: v.host, covers: covers.get(v.recordId)! });
    }
    return { written: values.length, events, reported };
  });
}
