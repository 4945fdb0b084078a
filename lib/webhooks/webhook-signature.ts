import { createHmac, sign as nodeSign } from "node:crypto";
import type { SigningKey } from "@/lib/signing/keys";

/** The headers that sign one delivery attempt. */
export type WebhookSignatureHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  /** `v1,<base64 HMAC-SHA256>` (one per secret during a rotation's overlap) then `v1a,<base64 Ed25519>`, one space between (Standard Webhooks). */
  "webhook-signature": string;
  /** PRS extension: the `kid` (in /.well-known/jwks.json) of the key behind the `v1a` entry. */
  "webhook-key-id": string;
};

/** What both signatures cover: `${webhook-id}.${webhook-timestamp}.${body}`, UTF-8. */
export const signedContent = (id: string, timestamp: string, body: string) => Buffer.from(`${id}.${timestamp}.${body}`, "utf8");

/**
 * Standard Webhooks signatures for one attempt: the symmetric `v1` with the endpoint's
 * secret, and the asymmetric `v1a` with the service's published signing key, so a receiver
 * can check a delivery with the public key alone. Verifiers skip versions they do not know
 * (the `standardwebhooks` library looks only at `v1` entries), so the extra entry is harmless.
 *
 * The signing key also signs records and answers, always RFC 8785 JSON of an object, which
 * begins with `{`. Signed webhook content begins with the id, held here to letters, digits,
 * `_` and `-` (an `evt_…` id), so no webhook signature can be passed off as a record's
 * (docs/decisions.md, "Webhooks signed with the record-signing key").
 */
export function signWebhook(
  args: {
    /** The endpoint's secret, or its secrets while a rotation overlaps (newest first): one `v1` entry each. */
    secret: string | readonly string[];
    key: Pick<SigningKey, "kid" | "privateObject">; id: string; at: Date; body: string;
  },
): WebhookSignatureHeaders {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(args.id)) throw new Error(`webhook id ${JSON.stringify(args.id)} is not a plain token`);
  const timestamp = String(Math.floor(args.at.getTime() / 1000));
  const content = signedContent(args.id, timestamp, args.body);
  // Standard Webhooks v1: base64 HMAC-SHA256 keyed with the base64 after `whsec_` — the same
  // bytes the `standardwebhooks` library produces (its pure-JS HMAC cost ≈ 10× OpenSSL's).
  // During a rotation's overlap there is one `v1` per secret; a receiver accepts the delivery if
  // any entry verifies with the secret it holds (Standard Webhooks: space-separated signatures).
  const secrets = typeof args.secret === "string" ? [args.secret] : args.secret;
  const v1 = secrets.map((s) => `v1,${createHmac("sha256", hmacKey(s)).update(content).digest("base64")}`).join(" ");
  const v1a = nodeSign(null, content, args.key.privateObject).toString("base64");
  return {
    "webhook-id": args.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `${v1} v1a,${v1a}`,
    "webhook-key-id": args.key.kid,
  };
}

const hmacKeys = new Map<string, Buffer>();
/** The HMAC key of a `whsec_` secret (decoded once per secret; a bounded cache). */
function hmacKey(secret: string): Buffer {
  let k = hmacKeys.get(secret);
  if (!k) {
    k = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
    if (hmacKeys.size >= 10_000) hmacKeys.clear();
    hmacKeys.set(secret, k);
  }
  return k;
}

/** A published key in Standard Webhooks' public-key form: `whpk_` + standard base64 of the 32 raw bytes. */
export const whpk = (x: string) => `whpk_${Buffer.from(x, "base64url").toString("base64")}`;
