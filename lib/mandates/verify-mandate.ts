import { and, eq, inArray } from "drizzle-orm";
import { mandateKeys } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import type { FieldError } from "@/lib/http/errors";
import { getEnv } from "@/lib/env";
import { canonicalJson } from "@/lib/signing/canonical";
import { verifyEd25519Strict } from "@/lib/signing/ed25519-strict";

/** The fields a principal signs (CONTRACT "Mandates"); absent ones are left out. */
export type MandateFields = {
  agent_id: string; act: string; scope?: Record<string, unknown>; session_id?: string; valid_until?: string; mandate_hash?: string;
};

/** What the mandate signature covers: `account_id` is the id of the account behind the API key. */
export function mandatePayload(accountId: string, f: MandateFields): Record<string, unknown> {
  const all: Record<string, unknown> = {
    account_id: accountId, agent_id: f.agent_id, act: f.act, scope: f.scope, session_id: f.session_id, valid_until: f.valid_until,
    mandate_hash: f.mandate_hash,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

/**
 * Check a mandate signature: Ed25519 (strict: no small-order keys, RFC 8032 equation) over the
 * RFC 8785 canonical JSON of the payload, with an active mandate key of the same account and
 * the same environment as the API key the mandate is sent with (CONTRACT "Trust model" →
 * Agents: a sandbox key signs sandbox mandates only, a live key live ones). Another account's
 * key reads exactly like an unknown one; this account's key of the other environment is named
 * as such, so the caller knows which key to register.
 */
export async function verifyMandate(
  db: DbOrTx, auth: { accountId: string; environment: "sandbox" | "live" }, keyId: string, signature: string, fields: MandateFields,
): Promise<FieldError | null> {
  const { accountId, environment } = auth;
  const [key] = await db.select().from(mandateKeys).where(and(eq(mandateKeys.keyId, keyId), eq(mandateKeys.accountId, accountId)));
  if (!key) {
    return { code: "mandate_key_invalid", param: "principal_key_id", message: `No mandate key '${keyId.slice(0, 100)}' is registered for this account.` };
  }
  if (key.environment !== environment) {
    return {
      code: "mandate_key_invalid", param: "principal_key_id",
      message: `The mandate key '${keyId}' is a ${key.environment} key; a ${environment} mandate verifies only with a ${environment} mandate key. ` +
        `Register the key with a ${environment} API key (POST /api/v1/mandate-keys).`,
    };
  }
  if (key.revokedAt) {
    return { code: "mandate_key_invalid", param: "principal_key_id", message: `The mandate key '${keyId}' was revoked at ${key.revokedAt.toISOString()}.` };
  }
  const sig = Buffer.from(signature, "base64url");
  const message = new TextEncoder().encode(canonicalJson(mandatePayload(accountId, fields)));
  if (!verifyEd25519Strict(new Uint8Array(sig), message, new Uint8Array(Buffer.from(key.publicKey, "base64url")))) {
    return {
      code: "mandate_signature_invalid", param: "mandate_signature",
      message: `The signature does not verify with mandate key '${keyId}' over the canonical JSON of {account_id, agent_id, act, scope, session_id, valid_until, mandate_hash}.`,
    };
  }
  return null;
}

export type MandateKeyStanding = { status: "active" | "revoked"; environment: "sandbox" | "live" };

/** A mandate key as a record cites it: its id within the account that issued the record. */
export type MandateKeyRef = { accountId: string; keyId: string };

/** The map key mandateKeyStandings answers under (key ids and account ids hold no NUL). */
export const mandateKeyRefKey = (r: MandateKeyRef) => `${r.accountId}\u0000${r.keyId}`;

/**
 * The standing and environment of mandate keys (for the public view), each looked up in the
 * account that issued the record citing it — never another account's key of the same id
 * (issue 29: key ids are unique per account only). Absent when unknown.
 */
export async function mandateKeyStandings(db: DbOrTx, refs: readonly MandateKeyRef[]): Promise<Map<string, MandateKeyStanding>> {
  const wanted = new Set(refs.map(mandateKeyRefKey));
  if (wanted.size === 0) return new Map();
  const rows = await db
    .select({ accountId: mandateKeys.accountId, keyId: mandateKeys.keyId, revokedAt: mandateKeys.revokedAt, environment: mandateKeys.environment })
    .from(mandateKeys)
    .where(and(inArray(mandateKeys.accountId, [...new Set(refs.map((r) => r.accountId))]), inArray(mandateKeys.keyId, [...new Set(refs.map((r) => r.keyId))])));
  return new Map(rows
    .filter((r) => wanted.has(mandateKeyRefKey(r)))
    .map((r) => [mandateKeyRefKey(r), { status: r.revokedAt ? ("revoked" as const) : ("active" as const), environment: r.environment }]));
}

/** Where anyone reads the key back, with its owner named (app/keys/[id]/[key_id]). */
export const publicMandateKeyUrl = (r: MandateKeyRef) =>
  `${getEnv().publicBaseUrl}/keys/${encodeURIComponent(r.accountId)}/${encodeURIComponent(r.keyId)}`;

/** The key under which cached views of records signed with this account's mandate key depend on it (status-cache.ts). */
export const mandateKeyDependency = (r: MandateKeyRef) => `mandate-key:${r.accountId}:${r.keyId}`;
