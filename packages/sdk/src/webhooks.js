// Webhook deliveries, signed per Standard Webhooks: `webhook-signature` holds space-separated
// `v1,<base64 HMAC-SHA256 with the endpoint's whsec_ secret>` and
// `v1a,<base64 Ed25519 by the service's key>`, both over "{webhook-id}.{webhook-timestamp}.{raw body}";
// `webhook-key-id` names the v1a key's kid in the JWKS.
import { createHmac, timingSafeEqual } from "node:crypto";
import { ed25519VerifyStrict, jwksKey } from "./verify.js";
export class WebhookVerificationError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
        this.name = "WebhookVerificationError";
    }
}
function header(headers, name) {
    if (typeof headers.get === "function")
        return headers.get(name) ?? undefined;
    for (const [k, v] of Object.entries(headers))
        if (k.toLowerCase() === name)
            return Array.isArray(v) ? v.join(", ") : v;
    return undefined;
}
const concat = (...parts) => new Uint8Array(Buffer.concat(parts));
/**
 * Checks a delivery and returns its event; throws WebhookVerificationError when it is forged,
 * altered or stale. Pass the body exactly as received (the raw string or bytes, before any
 * JSON parsing). With `secret`, the v1 HMAC must match; with `jwks`, the v1a Ed25519
 * signature by the key `webhook-key-id` names must verify; given both, both must.
 */
export async function verifyWebhook(rawBody, headers, keys, options = {}) {
    if (keys.secret === undefined && keys.jwks === undefined)
        throw new WebhookVerificationError("invalid_secret", "give the endpoint's secret or the service's JWKS");
    const id = header(headers, "webhook-id");
    const timestamp = header(headers, "webhook-timestamp");
    const signatures = header(headers, "webhook-signature");
    if (!id || !timestamp || !signatures)
        throw new WebhookVerificationError("missing_headers", "webhook-id, webhook-timestamp and webhook-signature are required");
    if (!/^\d{1,15}$/.test(timestamp))
        throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not whole seconds");
    const tolerance = options.toleranceSeconds ?? 300;
    const age = Math.floor((options.now ?? Date.now()) / 1000) - Number(timestamp);
    if (age > tolerance)
        throw new WebhookVerificationError("timestamp_too_old", `the delivery is ${age} s old (tolerance ${tolerance} s)`);
    if (-age > tolerance)
        throw new WebhookVerificationError("timestamp_too_new", `the delivery is dated ${-age} s ahead (tolerance ${tolerance} s)`);
    const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : rawBody;
    const content = concat(new TextEncoder().encode(`${id}.${timestamp}.`), body);
    const entries = signatures.split(" ").map((s) => {
        const comma = s.indexOf(",");
        return comma < 0 ? { version: s, value: "" } : { version: s.slice(0, comma), value: s.slice(comma + 1) };
    });
    if (keys.secret !== undefined) {
        if (!keys.secret.startsWith("whsec_"))
            throw new WebhookVerificationError("invalid_secret", "the secret is not a whsec_ secret");
        const key = Buffer.from(keys.secret.slice("whsec_".length), "base64");
        if (key.length === 0)
            throw new WebhookVerificationError("invalid_secret", "the secret is empty");
        const expected = createHmac("sha256", key).update(content).digest();
        const ok = entries.some((e) => {
            if (e.version !== "v1")
                return false;
            const given = Buffer.from(e.value, "base64");
            return given.length === expected.length && timingSafeEqual(given, expected);
        });
        if (!ok)
            throw new WebhookVerificationError("no_matching_signature", "no v1 signature matches the secret");
    }
    if (keys.jwks !== undefined) {
        const kid = header(headers, "webhook-key-id");
        const key = jwksKey(keys.jwks, kid);
        if (!key.ok)
            throw new WebhookVerificationError(key.code, `webhook-key-id: ${key.message}`);
        let ok = false;
        for (const e of entries) {
            if (e.version !== "v1a" || !/^[A-Za-z0-9+/]+={0,2}$/.test(e.value))
                continue;
            if (await ed25519VerifyStrict(new Uint8Array(Buffer.from(e.value, "base64")), content, key.publicKey))
                ok = true;
        }
        if (!ok)
            throw new WebhookVerificationError("no_matching_signature", `no v1a signature verifies with key ${String(kid)}`);
    }
    return JSON.parse(new TextDecoder().decode(body));
}
