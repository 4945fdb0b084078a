import { and, eq, sql } from "drizzle-orm";
import { nudgeOutbox } from "@/lib/outbox/wake";
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

export type Claimed = {
  id: string; webhook_id: string; event_id: string; attempts: number; url: string; secret: string; payload: string;
  /** The secret before a rotation, while its overlap lasts (else null): deliveries are signed with both. */
  previous_secret: string | null;
};

/** The secrets a delivery is signed with: the endpoint's, then the one it replaced while that one lasts. */
const secretsOf = (c: Claimed) => (c.previous_secret ? [c.secret, c.previous_secret] : [c.secret]);
/** One endpoint's claimed deliveries, oldest event first: sent one at a time, in this order. */
export type Chain = Claimed[];

/** At most this many of one endpoint's due deliveries are claimed (and then sent one by one) at a time. */
export const CHAIN_MAX = 100;
/** A chain starts no further send once this little of its lease would be left after one more full attempt. */
const LEASE_MARGIN_MS = 5_000;
const leaseMs = () => getEnv().WEBHOOK_TIMEOUT_MS + 30_000;

/**
 * Claim due deliveries for this worker (a lease, taken with SKIP LOCKED so concurrent
 * workers never pick the same one), for up to `endpoints` endpoints, in one statement. One
 * endpoint is served by one worker at a time, across all workers: only an endpoint none of
 * whose deliveries is leased is claimed, and then its due deliveries of the oldest events
 * (up to `perEndpoint`, in event order), which the worker sends one at a time, in that
 * order (sendChain). So an endpoint has at most one send in flight and gets its events in
 * order (a failed one is retried on its schedule while later ones go on), a backlog drains
 * oldest first, and endpoints are served side by side: a slow endpoint holds one send slot,
 * never another endpoint's events. One round trip claims many deliveries.
 */
export async function claimDue(db: Db, endpoints: number, perEndpoint = CHAIN_MAX): Promise<Chain[]> {
  if (endpoints <= 0) return [];
  const res = await db.execute(sql`
    with waiting as (
      -- One pass over the pending deliveries: which endpoints have something due (since
      -- when), and which have one leased (served by a worker now, so not claimable). The
      -- events are joined only for the chosen endpoints' chains below.
      select d.webhook_id, min(d.next_attempt_at) filter (where d.next_attempt_at <= now()) as since,
             coalesce(bool_or(d.locked_until >= now()), false) as leased
      from webhook_deliveries d
      where d.status = 'pending'
      group by d.webhook_id
    ), free as (
      select h.webhook_id from waiting h join webhooks w on w.id = h.webhook_id
      where h.since is not null and not h.leased and w.status = 'enabled' and w.deleted_at is null
      order by h.since limit ${endpoints}
    ), chain as (
      select c.id, c.seq from free f cross join lateral (
        select d.id, row_number() over (order by e.created_at, e.id) as seq
        from webhook_deliveries d join events e on e.id = d.event_id
        where d.webhook_id = f.webhook_id and d.status = 'pending' and d.next_attempt_at <= now()
        order by e.created_at, e.id limit ${perEndpoint}
      ) c
    ), due as (
      -- Rechecked on the row's newest version when another worker changed it after this
      -- statement's snapshot (READ COMMITTED): a delivery that was claimed, sent and recorded
      -- meanwhile is no longer pending, and one claimed meanwhile is leased — neither is taken.
      select d.id, chain.seq from webhook_deliveries d join chain on chain.id = d.id
      where d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
      for update of d skip locked
    )
    update webhook_deliveries d set locked_until = now() + make_interval(secs => ${leaseMs() / 1000})
    from due, webhooks w, events e
    where d.id = due.id and w.id = d.webhook_id and e.id = d.event_id
    returning d.id, d.webhook_id, d.event_id, d.attempts, w.url, w.secret, e.payload, due.seq::int as seq,
      case when w.previous_secret_expires_at > now() then w.previous_secret end as previous_secret`);
  const byEndpoint = new Map<string, (Claimed & { seq: number })[]>();
  for (const row of rowsOf<Claimed & { seq: number | string }>(res)) {
    const list = byEndpoint.get(row.webhook_id) ?? [];
    list.push({ ...row, seq: Number(row.seq) });
    byEndpoint.set(row.webhook_id, list);
  }
  const chains: Chain[] = [];
  const stray: string[] = [];
  for (const list of byEndpoint.values()) {
    list.sort((a, b) => a.seq - b.seq);
    // Only an unbroken run from the endpoint's oldest due event is sent; were one in the
    // middle locked by someone else meanwhile (SKIP LOCKED), the rest is let go at once.
    let n = 0;
    while (n < list.length && list[n]!.seq === n + 1) n++;
    if (n > 0) chains.push(list.slice(0, n).map(({ seq: _seq, ...c }) => c));
    stray.push(...list.slice(n).map((c) => c.id));
  }
  if (stray.length) await releaseLeases(db, stray);
  return chains;
}

/** Let claimed deliveries go unsent (their lease ends now; still pending, still due). */
async function releaseLeases(db: Db, ids: string[]): Promise<void> {
  await db.execute(sql`
    update webhook_deliveries set locked_until = null
    where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)) and status = 'pending'`);
}

/**
 * Send one endpoint's chain one delivery at a time, in order, and hand each outcome to
 * `outcomes` (recorded in batches). The chain stops at the first failure (a failed delivery
 * is retried on its schedule; a slow endpoint holds its slot for one deadline, not one per
 * event), when `stopping()` says so, or when the lease would not cover another full attempt;
 * what it did not send is let go at once. Resolves when every outcome has been recorded.
 */
export async function sendChain(
  outcomes: OutcomeRecorder, key: SigningKey, chain: Chain, stopping: () => boolean = () => false,
): Promise<void> {
  const claimedAt = Date.now();
  const limit = leaseMs() - LEASE_MARGIN_MS - getEnv().WEBHOOK_TIMEOUT_MS;
  const recorded: Promise<void>[] = [];
  let i = 0;
  for (; i < chain.length; i++) {
    if (i > 0 && (stopping() || Date.now() - claimedAt > limit)) break;
    const c = chain[i]!;
    const r = await sendWebhook(c.url, secretsOf(c), key, c.event_id, c.payload, c.webhook_id);
    recorded.push(outcomes.record(c, r));
    if (!isOk(r)) {
      i++;
      break;
    }
  }
  if (i < chain.length) recorded.push(outcomes.release(chain.slice(i).map((c) => c.id)));
  await Promise.all(recorded);
}

/**
 * Claim and send what is due, waiting for every send: one step of a round (tests, the
 * CLI). The running worker (delivery-worker.ts) does not wait: it keeps a pool of sends.
 */
export async function deliverDue(db: Db, endpoints = 20): Promise<number> {
  // The key for the v1a signatures, chosen before anything is claimed: a process whose keys
  // are not published yet fails here, leaving the deliveries to others (keys.ts, activeOf).
  const key = keyring().active;
  const chains = await claimDue(db, endpoints);
  const outcomes = new OutcomeRecorder(db);
  await Promise.all(chains.map((chain) => sendChain(outcomes, key, chain)));
  return chains.reduce((n, c) => n + c.length, 0);
}

const isOk = (r: SendResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

type Success = { c: Claimed; r: SendResult; at: Date; done: () => void; fail: (e: unknown) => void };

/**
 * Records delivery outcomes in batches (group commit): while one batch is being written,
 * the outcomes that arrive wait and go together in the next. All successes of a batch are
 * one statement (attempt rows, deliveries succeeded, the endpoints' failure counters reset);
 * a failure is recorded on its own, as before (retry schedule, disabling, the owner's mail).
 * A delivery stays leased until its outcome is written, so a crash in between sends it
 * again (at-least-once, the same webhook-id).
 */
export class OutcomeRecorder {
  private successes: Success[] = [];
  private releases: { ids: string[]; done: () => void; fail: (e: unknown) => void }[] = [];
  private writing: Promise<void> | null = null;
  constructor(private readonly db: Db) {}

  record(c: Claimed, r: SendResult): Promise<void> {
    if (!isOk(r)) return recordOutcome(this.db, c, r);
    return new Promise((done, fail) => {
      this.successes.push({ c, r, at: new Date(), done, fail });
      this.kick();
    });
  }

  release(ids: string[]): Promise<void> {
    return new Promise((done, fail) => {
      this.releases.push({ ids, done, fail });
      this.kick();
    });
  }

  private kick() {
    if (this.writing) return;
    this.writing = (async () => {
      // Let the sends that end in this same turn of the event loop join the batch.
      await new Promise((r) => setImmediate(r));
      while (this.successes.length || this.releases.length) {
        const ok = this.successes.splice(0, 1000);
        const rel = this.releases.splice(0);
        try {
          if (ok.length) await recordSuccesses(this.db, ok);
          ok.forEach((s) => s.done());
        } catch (e) {
          ok.forEach((s) => s.fail(e));
        }
        try {
          if (rel.length) await releaseLeases(this.db, rel.flatMap((x) => x.ids));
          rel.forEach((x) => x.done());
        } catch (e) {
          rel.forEach((x) => x.fail(e));
        }
      }
    })().finally(() => {
      this.writing = null;
      if (this.successes.length || this.releases.length) this.kick();
    });
  }
}

/** The successes of a batch in one statement. Rows are taken in id order, deliveries before endpoints (the lock order of manage-webhooks.ts). */
async function recordSuccesses(db: Db, batch: Success[]): Promise<void> {
  const rows = batch
    .map(({ c, r, at }) => ({
      attempt_id: newAttemptId(), id: c.id, webhook_id: c.webhook_id, attempts: c.attempts + 1,
      at: at.toISOString(), status_code: r.statusCode, latency_ms: r.latencyMs, response: r.response ?? null,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await db.execute(sql`
    with s as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(attempt_id text, id text, webhook_id text, attempts int, at timestamptz, status_code int, latency_ms int, response text)
    ), attempts as (
      insert into webhook_attempts (id, delivery_id, attempted_at, status_code, latency_ms, error, response_excerpt)
      select attempt_id, id, at, status_code, latency_ms, null, response from s
    ), deliveries as (
      update webhook_deliveries d set status = 'succeeded', attempts = s.attempts, last_attempt_at = s.at, locked_until = null
      from s where d.id = s.id
      returning d.webhook_id
    )
    update webhooks w set consecutive_failures = 0
    where w.id in (select webhook_id from deliveries) and w.consecutive_failures <> 0`);
}

async function recordOutcome(db: Db, c: Claimed, r: SendResult) {
  const now = new Date();
  const ok = isOk(r);
  const attempts = c.attempts + 1;
  const delays = schedule();
  const retryIn = ok || attempts > delays.length ? null : jitter(delays[attempts - 1]!);
  const disabledBy = await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      id: newAttemptId(), deliveryId: c.id, attemptedAt: now, statusCode: r.statusCode, latencyMs: r.latencyMs,
      error: r.error ?? (ok ? null : `HTTP ${r.statusCode}`), responseExcerpt: r.response ?? null,
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
        nextAttemptAt: exhausted || retryIn === null ? now : new Date(now.getTime() + retryIn),
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
  // A retry is due after its delay: this process's worker looks then, not at its next poll.
  if (retryIn !== null) nudgeOutbox(retryIn + 20);
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
