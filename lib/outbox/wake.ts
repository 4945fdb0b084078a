/**
 * An in-process nudge for the webhook worker (lib/webhooks/delivery-worker.ts): whoever writes
 * an event or makes a delivery due says so here, and the worker of this process looks at once
 * instead of at its next poll. Events are written inside transactions that commit a moment
 * later, so a nudge is answered by a short burst of looks (NUDGE_BURST_MS), not one. The poll
 * (WORKER_POLL_MS) stays the floor: it finds what other processes wrote, a lease that ran out,
 * and anything a missed nudge left. A process without a worker (the operator CLI on its own
 * database) nudges nobody.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

/** After a nudge, the worker looks at these offsets (ms): the writing transaction commits within them in practice. */
export const NUDGE_BURST_MS = [5, 40, 200] as const;

/** The worker's subscription; returns its unsubscribe. */
export function onOutboxNudge(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Something became deliverable now (`inMs` = 0) or will be in `inMs` (a retry's delay). */
export function nudgeOutbox(inMs = 0): void {
  if (listeners.size === 0) return;
  for (const offset of inMs > 0 ? [inMs + NUDGE_BURST_MS[0]] : NUDGE_BURST_MS) {
    setTimeout(() => {
      for (const l of listeners) l();
    }, offset).unref();
  }
}
