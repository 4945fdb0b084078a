// Webhook deliveries, signed per Standard Webhooks: `webhook-signature` holds space-separated
// `v1,<base64 HMAC-SHA256 with the endpoint's whsec_ secret>` and
// `v1a,<base64 Ed25519 by the service's key>`, both over "{webhook-id}.{webhook-timestamp}.{raw body}";
// `webhook-key-id` names the v1a key's kid in the JWKS.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { components } from "./generated/openapi.js";
import { ed25519VerifyStrict, jwksKey, type Jwks } from "./verify.js";

export type WebhookEventType = "record.issued" | "record.pending_review" | "record.status_changed" | "record.rejected" | "principal_link.changed" | "watch.matched" | "badge.seen_elsewhere" | "account.notice" | "webhook.test";

/** What a delivery's body holds. `data` depends on `type`; record events carry `data.record`. */
export type WebhookEvent = {
  id: string;
  type: WebhookEventType | (string & {});
  created_at: string;
  environment: "sandbox" | "live";
  data: { record?: components["schemas"]["Record"]; [field: string]: unknown };
};

export type WebhookVerifyKeys =
  /** The endpoint's secret (`whsec_…`, shown when it was registered): checks the `v1` signature. */
  | { secret: string; jwks?: Jwks }
  /** The service's JWKS (client.jwks()): checks the `v1a` signature, no shared secret needed. */
  | { jwks: Jwks; secret?: string };

export type WebhookVerifyOptions = {
  /** How far webhook-timestamp may be from now, in seconds (default 300, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** The clock, in milliseconds (for tests). */
  now?: number;
};

export type WebhookFailure = "missing_headers" | "invalid_timestamp" | "timestamp_too_old" | "timestamp_too_new" | "invalid_secret" | "unknown_key" | "unusable_key" | "no_matching_signature";

export class WebhookVerificationError extends Error {
  constructor(readonly code: WebhookFailure, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(", ") : v;
  return undefined;
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/**
 * Checks a delivery and returns its event; throws WebhookVerificationError when it is forged,
 * altered or stale. Pass the body exactly as received (the raw string or bytes, before any
 * JSON parsing). With `secret`, the v1 HMAC must match; with `jwks`, the v1a Ed25519
 * signature by the key `webhook-key-id` names must verify; given both, both must.
 */
export async function verifyWebhook(rawBody: string | Uint8Array, headers: HeaderBag, keys: WebhookVerifyKeys, options: WebhookVerifyOptions = {}): Promise<WebhookEvent> {
  if (keys.secret === undefined && keys.jwks === undefined) throw new WebhookVerificationError("invalid_secret", "give the endpoint's secret or the service's JWKS");
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing_headers", "webhook-id, webhook-timestamp and webhook-signature are required");
  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not whole seconds");
  const tolerance = options.toleranceSeconds ?? 300;
  const age = Math.floor((options.now ?? Date.now()) / 1000) - Number(timestamp);
  if (age > tolerance) throw new WebhookVerificationError("timestamp_too_old", `the delivery is ${age} s old (tolerance ${tolerance} s)`);
  if (-age > tolerance) throw new WebhookVerificationError("timestamp_too_new", `the delivery is dated ${-age} s ahead (tolerance ${tolerance} s)`);

  const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : rawBody;
  const content = concat(new TextEncoder().encode(`${id}.${timestamp}.`), body);
  const entries = signatures.split(" ").map((s) => {
    const comma = s.indexOf(",");
    return comma < 0 ? { version: s, value: "" } : { version: s.slice(0, comma), value: s.slice(comma + 1) };
  });

  if (keys.secret !== undefined) {
    if (!keys.secret.startsWith("whsec_")) throw new WebhookVerificationError("invalid_secret", "the secret is not a whsec_ secret");
    const key = Buffer.from(keys.secret.slice("whsec_".length), "base64");
    if (key.length === 0) throw new WebhookVerificationError("invalid_secret", "the secret is empty");
    const expected = createHmac("sha256", key).update(content).digest();
    const ok = entries.some((e) => {
      if (e.version !== "v1") return false;
      const given = Buffer.from(e.value, "base64");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!ok) throw new WebhookVerificationError("no_matching_signature", "no v1 signature matches the secret");
  }

  if (keys.jwks !== undefined) {
    const kid = header(headers, "webhook-key-id");
    const key = jwksKey(keys.jwks, kid);
    if (!key.ok) throw new WebhookVerificationError(key.code, `webhook-key-id: ${key.message}`);
    let ok = false;
    for (const e of entries) {
      if (e.version !== "v1a" || !/^[A-Za-z0-9+/]+={0,2}$/.test(e.value)) continue;
      if (await ed25519VerifyStrict(new Uint8Array(Buffer.from(e.value, "base64")), content, key.publicKey)) ok = true;
    }
    if (!ok) throw new WebhookVerificationError("no_matching_signature", `no v1a signature verifies with key ${String(kid)}`);
  }

  return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
}
