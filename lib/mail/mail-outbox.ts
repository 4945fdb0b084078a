import { and, asc, inArray, isNull, lte, sql } from "drizzle-orm";
import { mailOutbox } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { newMailId } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { nudgeOutbox } from "@/lib/outbox/wake";
import { sendMail } from "./send-mail";

export type QueuedMail = { to: string; subject: string; text: string };

/** Tries per mail before it is left unsent with its last error (1 min, 5 min, 25 min … apart). */
export const MAIL_MAX_ATTEMPTS = 6;
/** A claimed mail is someone's for this long: a worker that died mid-send frees it then. */
const LEASE_MS = 2 * 60_000;

/**
 * Queue mails in the caller's transaction: they are sent by the outbox worker once it commits
 * (a rolled-back decision mails nobody), never inside the request.
 */
export async function queueMail(tx: DbOrTx, ...mails: QueuedMail[]) {
  if (mails.length === 0) return;
  await tx.insert(mailOutbox).values(mails.map((m) => ({ id: newMailId(), to: m.to, subject: m.subject, text: m.text })));
  nudgeOutbox();
}

/**
 * Send up to `limit` due mails (the delivery worker's round calls it): claimed under a lease in
 * one short transaction (skip locked, so workers of several processes share the queue), sent
 * outside it, then marked sent — or, on a failure, due again later with backoff. Returns how
 * many it tried.
 */
export async function sendQueuedMail(db: Db, limit = 20, now = new Date()): Promise<number> {
  const claimed = await db.transaction(async (tx) => {
    const due = await tx.select().from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), lte(mailOutbox.nextAttemptAt, now), sql`${mailOutbox.attempts} < ${MAIL_MAX_ATTEMPTS}`))
      .orderBy(asc(mailOutbox.nextAttemptAt)).limit(limit).for("update", { skipLocked: true });
    if (due.length) {
      await tx.update(mailOutbox).set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS), attempts: sql`${mailOutbox.attempts} + 1` })
        .where(inArray(mailOutbox.id, due.map((m) => m.id)));
    }
    return due;
  });
  for (const m of claimed) {
    try {
      await sendMail({ to: m.to, subject: m.subject, text: m.text });
      await db.update(mailOutbox).set({ sentAt: new Date(), lastError: null }).where(inArray(mailOutbox.id, [m.id]));
    } catch (err) {
      const wait = 60_000 * 5 ** m.attempts;
      log().warn({ err, mail: m.id, attempt: m.attempts + 1 }, "queued mail failed; it will be tried again");
      await db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() + wait), lastError: String((err as Error)?.message ?? err).slice(0, 500) })
        .where(inArray(mailOutbox.id, [m.id]));
    }
  }
  return claimed.length;
}
