import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { PrsClient } from "../../sdk/src/index.js";

type Event = { id: string; type: string; created_at: string; environment: string; record_id: string | null; data: Record<string, unknown> };

/** A signing secret for the local endpoint, in Standard Webhooks' form. */
export const newLocalSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** The event as a webhook delivery carries it (the body the service signs): `{id, type, created_at, environment, data}`. */
export const deliveryBody = (e: Event) => JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at, environment: e.environment, data: e.data });

/**
 * `prs listen`: follow the events API and POST each new event to `forwardTo`, signed per
 * Standard Webhooks with `secret` (the `standardwebhooks` library's signer; `webhook-id` is the
 * event id), oldest first, each once. Events raised before it started are not forwarded.
 * Resolves when `signal` aborts.
 */
export async function listen(
  prs: PrsClient,
  opts: { forwardTo: string; secret: string; intervalMs: number; signal: AbortSignal; out: (line: string) => void },
): Promise<void> {
  const signer = new Webhook(opts.secret);
  const seen = new Set<string>();
  const page = async () => ((await prs.events.list({ limit: 100 })) as { data: Event[] }).data;
  // Where it starts: everything listed now is history.
  for (const e of await page()) seen.add(e.id);
  opts.out(`Ready. Forwarding events to ${opts.forwardTo}. Your local webhook signing secret is ${opts.secret} (Ctrl-C to stop)`);
  while (!opts.signal.aborted) {
    try {
      const fresh = (await page()).filter((e) => !seen.has(e.id)).reverse(); // the API lists newest first
      for (const e of fresh) {
        seen.add(e.id);
        opts.out(`--> ${e.type} ${e.id}${e.record_id ? ` ${e.record_id}` : ""} ${await forward(signer, opts.forwardTo, e)}`);
      }
    } catch (err) {
      opts.out(`! could not read events: ${(err as Error).message}`);
    }
    await new Promise((r) => {
      const t = setTimeout(r, opts.intervalMs);
      opts.signal.addEventListener("abort", () => { clearTimeout(t); r(undefined); }, { once: true });
    });
  }
}

/** One signed POST to the local endpoint; its status (or why there was none), for the log line. */
async function forward(signer: Webhook, url: string, e: Event): Promise<string> {
  const body = deliveryBody(e);
  const at = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": e.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signer.sign(e.id, at, body),
  };
  try {
    const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return `[${res.status}]`;
  } catch (err) {
    return `[failed: ${(err as Error).message}]`;
  }
}
