/**
 * An in-process nudge for the webhook worker (lib/webhooks/delivery-worker.ts): whoever writes
 * an event or makes a delivery due says so here, and the worker of this process looks soon
 * instead of at its next poll. The poll (WORKER_POLL_MS) stays the floor: it finds what other
 * processes wrote, a lease that ran out, and anything a missed nudge left. A process without a
 * worker (the operator CLI on its own database) nudges nobody.
 *
 * Nudges are coalesced: however many events a burst writes (a batch writes hundreds), the
 * worker looks once NUDGE_DELAY_MS after the first — by then the writing transaction has
 * committed in practice — and once more NUDGE_FOLLOW_UP_MS after it, for a slower commit. So a
 * busy process looks at most about 1000 / NUDGE_DELAY_MS times a second, an idle one never.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export const NUDGE_DELAY_MS = 50;
export const NUDGE_FOLLOW_UP_MS = 400;

let soon: NodeJS.Timeout | null = null;
let later: NodeJS.Timeout | null = null;

const fire = () => {
  for (const l of listeners) l();
};

/** The worker's subscription; returns its unsubscribe. */
export function onOutboxNudge(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Something became deliverable now (no argument), or will be in `inMs` (a retry's delay: a look of its own then). */
export function nudgeOutbox(inMs?: number): void {
  if (listeners.size === 0) return;
  if (inMs !== undefined) {
    setTimeout(fire, inMs).unref();
    return;
  }
  soon ??= setTimeout(() => {
    soon = null;
    fire();
  }, NUDGE_DELAY_MS).unref();
  later ??= setTimeout(() => {
    later = null;
    fire();
  }, NUDGE_FOLLOW_UP_MS).unref();
}
