import { and, eq, sql } from "drizzle-orm";
import { accounts, webhookAttempts, webhookDeliveries, webhooks } from "@/drizzle/schema";
import { rowsOf, type Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { newAttemptId } from "@/lib/ids";
import { log } from "@/lib/log/logger";
import { sendMail } from "@/lib/mail/send-mail";
import { keyring, type SigningKey } from "@/lib/signing/keys";
import { sendWebhook, type SendResult } from "./send-webhook";

const schedule = () => getEnv().WEBHOOK_RETRY_SCHEDULE_MS.split(",").map(Number);
/** ±10 % so retries of many endpoints do not arrive in lockstep. */
const jitter = (ms: number) => Math.round(ms * (0.9 + Math.random() * 0.2));

export type Claimed = { id: string; webhook_id: string; event_id: string; attempts: number; url: string; secret: string; payload: string };

/**
 * Claim due deliveries for this worker (a lease, taken with SKIP LOCKED so concurrent
 * workers never pick the same one). One delivery per endpoint at a time, across all
 * workers: the endpoint's due delivery of the oldest event, and only while none of its
 * deliveries is leased. So an endpoint gets its events in order (a failed one is retried on
 * its schedule while later ones go on), a backlog drains oldest first, and endpoints are
 * served side by side: a slow endpoint holds one lease, never another endpoint's events.
 */
export async function claimDue(db: Db, limit: number): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const leaseMs = getEnv().WEBHOOK_TIMEOUT_MS + 30_000;
  const res = await db.execute(sql`
    with heads as (
      select distinct on (d.webhook_id) d.id
      from webhook_deliveries d join webhooks w on w.id = d.webhook_id join events e on e.id = d.event_id
      where d.status = 'pending' and d.next_attempt_at <= now() and w.status = 'enabled' and w.deleted_at is null
      order by d.webhook_id, e.created_at, e.id
    ), due as (
      select d.id from webhook_deliveries d join heads h on h.id = d.id
      where (d.locked_until is null or d.locked_until < now())
        and not exists (select 1 from webhook_deliveries o where o.webhook_id = d.webhook_id and o.status = 'pending' and o.locked_until >= now())
      order by d.next_attempt_at limit ${limit}
      for update of d skip locked
    )
    update webhook_deliveries d set locked_until = now() + make_interval(secs => ${leaseMs / 1000})
    from due, webhooks w, events e
    where d.id = due.id and w.id = d.webhook_id and e.id = d.event_id
    returning d.id, d.webhook_id, d.event_id, d.attempts, w.url, w.secret, e.payload`);
  return rowsOf<Claimed>(res);
}

/** Send one claimed delivery (outside any transaction; the attempt has a total deadline) and record the outcome. */
export async function deliverClaimed(db: Db, key: SigningKey, c: Claimed): Promise<void> {
  await recordOutcome(db, c, await sendWebhook(c.url, c.secret, key, c.event_id, c.payload));
}

/**
 * Claim and send what is due, waiting for every send: one step of a round (tests, the
 * CLI). The running worker (delivery-worker.ts) does not wait: it keeps a pool of sends.
 */
export async function deliverDue(db: Db, limit = 20): Promise<number> {
  // The key for the v1a signatures, chosen before anything is claimed: a process whose keys
  // are not published yet fails here, leaving the deliveries to others (keys.ts, activeOf).
  const key = keyring().active;
  const claimed = await claimDue(db, limit);
  await Promise.all(claimed.map((c) => deliverClaimed(db, key, c)));
  return claimed.length;
}

async function recordOutcome(db: Db, c: Claimed, r: SendResult) {
  const now = new Date();
  const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
  const attempts = c.attempts + 1;
  const delays = schedule();
  const disabledBy = await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: newAttemptId(), deliveryId: c.id, attemptedAt: now, statusCode: r.statusCode, latencyMs: r.latencyMs,
      error: r.error ?? (ok ? null : `HTTP ${r.statusCode}`),
    });
    if (ok) {
      await tx.update(webhookDeliveries).set({ status: "succeeded", attempts, lastAttemptAt: now, lockedUntil: null }).where(eq(webhookDeliveries.id, c.id));
      await tx.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, c.webhook_id));
      return null;
    }
    const exhausted = attempts > delays.length;
    await tx
      .update(webhookDeliveries)
      .set({
        status: exhausted ? "failed" : "pending", attempts, lastAttemptAt: now, lockedUntil: null,
        nextAttemptAt: exhausted ? now : new Date(now.getTime() + jitter(delays[attempts - 1]!)),
      })
      // Still pending: a delivery ended while this attempt was in flight (its endpoint removed,
      // e.g. at a first confirmation) stays ended — a failed attempt must not bring it back.
      .where(and(eq(webhookDeliveries.id, c.id), eq(webhookDeliveries.status, "pending")));
    const [w] = await tx
      .update(webhooks)
      .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` })
      .where(eq(webhooks.id, c.webhook_id))
      .returning();
    const gone = r.statusCode === 410;
    if (!w || w.status !== "enabled" || (!gone && w.consecutiveFailures < getEnv().WEBHOOK_DISABLE_AFTER)) return null;
    const reason = gone
      ? "The endpoint answered 410 Gone."
      : `${w.consecutiveFailures} consecutive failed delivery attempts (last: ${r.error ?? `HTTP ${r.statusCode}`}).`;
    await tx.update(webhooks).set({ status: "disabled", disabledReason: reason }).where(eq(webhooks.id, w.id));
    const [owner] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, w.accountId));
    return { webhook: w, reason, email: owner?.email };
  });
  if (disabledBy?.email) {
    await sendMail({
      to: disabledBy.email,
      subject: `Webhook disabled: ${disabledBy.webhook.url}`,
      text:
        `Proof Records stopped sending events to your ${disabledBy.webhook.environment} webhook ${disabledBy.webhook.id}\n` +
        `(${disabledBy.webhook.url}).\n\nReason: ${disabledBy.reason}\n\n` +
        `Events are kept for it meanwhile: the newest ${getEnv().WEBHOOK_BACKLOG_MAX} raised within the last ${getEnv().WEBHOOK_BACKLOG_DAYS} days.\n` +
        `Fix the endpoint, then re-enable it with POST /api/v1/webhooks/${disabledBy.webhook.id}/enable;\n` +
        `the kept deliveries then go out, oldest first.\n`,
    }).catch((err) => log().error({ err }, "could not send the webhook-disabled mail"));
  }
}
