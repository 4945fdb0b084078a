import http from "node:http";
import https from "node:https";
import net from "node:net";
import { getEnv } from "@/lib/env";
import type { SigningKey } from "@/lib/signing/keys";
import { guardedLookup, isAllowedDestination } from "./destination";
import { signWebhook } from "./webhook-signature";

export type SendResult = { statusCode: number | null; latencyMs: number; error: string | null };

/**
 * One signed POST (Standard Webhooks): `webhook-id` is the event id (stable across
 * retries); `webhook-signature` covers `id.timestamp.body` twice — `v1` with the endpoint's
 * secret, `v1a` with the service's signing key `key`, named in `webhook-key-id`. Redirects
 * are not followed (a 3xx is a failure) and the address is checked again at connect time
 * (a name through the guarded lookup; an IP literal, which sockets do not look up, here).
 */
export function sendWebhook(
  url: string, secret: string, key: SigningKey, eventId: string, body: string,
): Promise<SendResult> {
  const started = Date.now();
  const headers = {
    "content-type": "application/json",
    "user-agent": "ProofRecords-Webhooks/1.0",
    ...signWebhook({ secret, key, id: eventId, at: new Date(), body }),
  };
  const u = new URL(url);
  const lib = u.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const done = (statusCode: number | null, error: string | null) =>
      resolve({ statusCode, error, latencyMs: Date.now() - started });
    const literal = u.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(literal) && !isAllowedDestination(literal)) return done(null, `refused: ${literal} is not a public address`);
    const req = lib.request(
      u,
      { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, lookup: guardedLookup as never, timeout: getEnv().WEBHOOK_TIMEOUT_MS },
      (res) => {
        res.resume(); // the answer's body is not needed
        res.on("end", () => done(res.statusCode ?? null, null));
        res.on("error", (e) => done(res.statusCode ?? null, e.message));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${getEnv().WEBHOOK_TIMEOUT_MS} ms`)));
    req.on("error", (e) => done(null, e.message.slice(0, 500)));
    req.end(body);
  });
}
