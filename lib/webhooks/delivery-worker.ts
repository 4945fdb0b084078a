import type { Db } from "@/lib/db/client";
import { onOutboxNudge } from "@/lib/outbox/wake";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log/logger";
import { sendQueuedMail } from "@/lib/mail/mail-outbox";
import { runOutboxTasks } from "@/lib/outbox/tasks";
import { keyring } from "@/lib/signing/keys";
import { claimDue, deliverDue, OutcomeRecorder, sendChain } from "./deliver-due";
import { dispatchEvents } from "./dispatch-events";

/** One pass, waiting for each send: the outbox's own tasks, then fan out new events and send what is due, until a pass finds nothing (tests). */
export async function runWorkerRound(db: Db): Promise<{ dispatched: number; sent: number }> {
  let dispatched = 0;
  let sent = 0;
  for (let i = 0; i < 50; i++) {
    const t = await runOutboxTasks(db);
    const d = await dispatchEvents(db);
    const s = await deliverDue(db);
    await sendQueuedMail(db);
    dispatched += d;
    sent += s;
    if (t === 0 && d === 0 && s === 0) break;
  }
  return { dispatched, sent };
}

/**
 * The running worker: polls every WORKER_POLL_MS, looks again whenever an endpoint's chain
 * ends and whenever this process wrote an event or made a delivery due (nudgeOutbox), fans out new events and keeps up to WEBHOOK_CONCURRENCY endpoints' chains in flight
 * (each one send at a time, in order: sendChain) without waiting for any of them — so one slow
 * endpoint holds one slot for at most its deadline (send-webhook.ts; its chain stops at the
 * failure) and never delays another endpoint's events. An endpoint has at most one send in
 * flight across all workers (its lease, claimDue). Claims are one statement for many
 * deliveries and outcomes are written in batches (OutcomeRecorder). Returns a stop function
 * that waits for the sends (a stopping worker starts no further send of a chain).
 */
export function startDeliveryWorker(db: Db): () => Promise<void> {
  const max = getEnv().WEBHOOK_CONCURRENCY;
  const inFlight = new Set<Promise<void>>();
  const outcomes = new OutcomeRecorder(db);
  let stopped = false;
  /** A round that runs one at a time: asked for while it runs, it runs once more after it. */
  const oneAtATime = (round: () => Promise<void>, failed: string) => {
    let running: Promise<void> | null = null;
    let again = false;
    const run = (): void => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = round()
        .catch((err) => log().error({ err }, failed))
        .finally(() => {
          running = null;
          if (again) {
            again = false;
            run();
          }
        });
    };
    return { run, finished: () => running };
  };

  const pump = oneAtATime(async () => {
    for (let i = 0; i < 50 && !stopped; i++) {
      const dispatched = await dispatchEvents(db);
      const free = max - inFlight.size;
      // Chosen before claiming: a process whose keys are not published yet claims nothing (keys.ts).
      const key = free > 0 ? keyring().active : null;
      const claimed = key ? await claimDue(db, free) : [];
      for (const chain of claimed) {
        const send: Promise<void> = sendChain(outcomes, key!, chain, () => stopped)
          .catch((err) => log().error({ err, deliveries: chain.map((c) => c.id) }, "webhook deliveries failed to record; their leases will expire"))
          .finally(() => {
            inFlight.delete(send);
            tick();
          });
        inFlight.add(send);
      }
      if (dispatched === 0 && claimed.length === 0) break;
    }
  }, "webhook worker round failed");
  // Queued mail (lib/mail/mail-outbox.ts) is sent beside the webhooks, never holding up their pump:
  // looked for when this process queued some (a nudge) and every tenth poll (another process's).
  const mail = oneAtATime(async () => {
    for (let i = 0; i < 50 && !stopped; i++) if ((await sendQueuedMail(db)) === 0) break;
  }, "queued mail round failed");
  let mailWanted = true;
  let polls = 0;
  // The outbox's own subscribers (lib/outbox/tasks.ts: the impersonation watches) run beside the
  // pump too, never holding it up: looked for at every poll and nudge (not after every send); the
  // events they write nudge the pump.
  const tasks = oneAtATime(async () => {
    for (let i = 0; i < 50 && !stopped; i++) if ((await runOutboxTasks(db)) === 0) break;
  }, "outbox task round failed");
  const tick = () => {
    if (mailWanted) {
      mailWanted = false;
      mail.run();
    }
    pump.run();
  };
  const timer = setInterval(() => {
    if (++polls % 10 === 0) mailWanted = true;
    tasks.run();
    tick();
  }, getEnv().WORKER_POLL_MS);
  timer.unref();
  // Events written and retries due in this process are looked at once (lib/outbox/wake.ts); the poll finds the rest.
  const unsubscribe = onOutboxNudge(() => {
    mailWanted = true;
    tasks.run();
    tick();
  });
  tasks.run();
  tick();
  return async () => {
    stopped = true;
    unsubscribe();
    clearInterval(timer);
    await pump.finished();
    await mail.finished();
    await tasks.finished();
    await Promise.all(inFlight);
  };
}
