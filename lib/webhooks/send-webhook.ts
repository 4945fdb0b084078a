import http from "node:http";
import https from "node:https";
import net from "node:net";
import { getEnv } from "@/lib/env";
import type { SigningKey } from "@/lib/signing/keys";
import { guardedLookup, isAllowedDestination } from "./destination";
import { signWebhook } from "./webhook-signature";

/**
 * Keep-alive agents, one per endpoint (webhook id and origin): a delivery reuses the
 * connection of the endpoint's previous one (no TCP/TLS handshake per event), and an
 * endpoint's sockets are never shared with another's. The address was checked when the
 * socket connected (guardedLookup); a reused socket goes to that same address. Bounded:
 * past MAX_AGENTS the oldest agent is closed.
 */
const MAX_AGENTS = 2000;
const agents = new Map<string, http.Agent>();
function agentFor(key: string, u: URL): http.Agent {
  const k = `${key} ${u.origin}`;
  let a = agents.get(k);
  if (a) {
    agents.delete(k); // re-inserted below: the map's order is least recently used first
  } else {
    const opts = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 4, maxFreeSockets: 1, timeout: 30_000 };
    a = u.protocol === "https:" ? new https.Agent(opts) : new http.Agent(opts);
    if (agents.size >= MAX_AGENTS) {
      const [oldKey, old] = agents.entries().next().value!;
      agents.delete(oldKey);
      old.destroy();
    }
  }
  agents.set(k, a);
  return a;
}

export type SendResult = {
  statusCode: number | null; latencyMs: number; error: string | null;
  /** The answer's first RESPONSE_EXCERPT_BYTES, as text (null when no answer came). */
  response?: string | null;
};

/** How much of an answer is kept for the events API: 1 KiB. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The first `limit` bytes as UTF-8 text: a character the cut went through is left out (a
 * streaming decode holds back an incomplete sequence), invalid bytes become U+FFFD, and NUL is
 * removed (PostgreSQL text refuses it).
 */
export function excerptOf(chunks: Buffer[], limit = RESPONSE_EXCERPT_BYTES): string {
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks).subarray(0, limit), { stream: true }).replace(/\0/g, "");
}

/**
 * One signed POST (Standard Webhooks): `webhook-id` is the event id (stable across
 * retries); `webhook-signature` covers `id.timestamp.body` twice — `v1` with the endpoint's
 * secret, `v1a` with the service's signing key `key`, named in `webhook-key-id`. Redirects
 * are not followed (a 3xx is a failure), the whole attempt has one deadline
 * (WEBHOOK_TIMEOUT_MS: connect, headers and the answer's body), and the address is checked again at connect time
 * (a name through the guarded lookup; an IP literal, which sockets do not look up, here).
 */
export function sendWebhook(
  url: string, secret: string | readonly string[], key: SigningKey, eventId: string, body: string, endpointKey = "",
): Promise<SendResult> {
  const started = Date.now();
  const headers = {
    "content-type": "application/json",
    "user-agent": "ProofRecords-Webhooks/1.0",
    ...signWebhook({ secret, key, id: eventId, at: new Date(), body }),
  };
  const u = new URL(url);
  const lib = u.protocol === "https:" ? https : http;
  const limitMs = getEnv().WEBHOOK_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const done = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ statusCode, error, latencyMs: Date.now() - started, response: statusCode === null ? null : excerptOf(kept) });
    };
    const literal = u.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(literal) && !isAllowedDestination(literal)) return done(null, `refused: ${literal} is not a public address`);
    const req = lib.request(
      u,
      {
        method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, lookup: guardedLookup as never,
        agent: agentFor(endpointKey, u),
      },
      (res) => {
        // The answer's first 1 KiB is kept (the events API shows it); the rest is read and dropped,
        // and all of it must arrive within the deadline.
        res.on("data", (chunk: Buffer) => {
          if (keptBytes < RESPONSE_EXCERPT_BYTES) {
            kept.push(chunk);
            keptBytes += chunk.length;
          }
        });
        res.on("end", () => done(res.statusCode ?? null, null));
        res.on("error", (e) => done(null, e.message.slice(0, 500)));
      },
    );
    // One deadline for the whole attempt — connect, headers and body: a receiver that
    // trickles its answer a byte at a time cannot hold the attempt (or its lease) longer.
    deadline = setTimeout(() => {
      done(null, `no answer within ${limitMs} ms`);
      req.destroy();
    }, limitMs);
    req.on("error", (e) => done(null, e.message.slice(0, 500)));
    req.end(body);
  });
}
