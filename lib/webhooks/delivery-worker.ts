import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log/logger";
import { deliverDue } from "./deliver-due";
import { dispatchEvents } from "./dispatch-events";

/** One pass: fan out new events, then send what is due, until a pass finds nothing. */
export async function runWorkerRound(db: Db): Promise<{ dispatched: number; sent: number }> {
  let dispatched = 0;
  let sent = 0;
  for (let i = 0; i < 50; i++) {
    const d = await dispatchEvents(db);
    const s = await deliverDue(db);
    dispatched += d;
    sent += s;
    if (d === 0 && s === 0) break;
  }
  return { dispatched, sent };
}

/** Poll every WORKER_POLL_MS; rounds never overlap. Returns a stop function. */
export function startDeliveryWorker(db: Db): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = runWorkerRound(db)
      .catch((err) => log().error({ err }, "webhook worker round failed"))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, getEnv().WORKER_POLL_MS);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
