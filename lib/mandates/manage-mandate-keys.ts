import { and, asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { mandateKeys } from "@/drizzle/schema";
import { getAccountProfile, type AccountProfile } from "@/lib/accounts/account-profile";
import type { AuthContext } from "@/lib/accounts/types";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { ACCOUNT_ID_RE, MANDATE_KEY_ID_RE } from "@/lib/ids";
import { parseOrThrow } from "@/lib/http/validation";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import { findPrivateKeyField, parseMandatePublicKey } from "./public-key";
import { mandateKeyDependency } from "./verify-mandate";

export const mandateKeyCreateSchema = z
  .strictObject({
    key_id: z
      .string()
      .min(3)
      .max(100)
      .regex(MANDATE_KEY_ID_RE, "must start with a letter or digit and contain only letters, digits, '.', '_', ':' and '-'.")
      .describe("Your name for the key, unique within your account (case-sensitive). Your records cite it as principal_key_id."),
    public_key: z
      .string()
      .min(1)
      .max(200)
      .describe("base64url (no padding) of the 32 raw Ed25519 public-key bytes — the `x` of a JWK. Never a private key."),
  })
  .meta({ id: "MandateKeyCreate" });

type Row = typeof mandateKeys.$inferSelect;

export const mandateKeyStatus = (k: Pick<Row, "revokedAt">) => (k.revokedAt ? ("revoked" as const) : ("active" as const));

/** The owner's view (API, portal). No account id: the key's owner is the caller. */
export function serializeMandateKey(k: Row) {
  return {
    object: "mandate_key" as const,
    key_id: k.keyId,
    algorithm: k.algorithm,
    public_key: k.publicKey,
    environment: k.environment,
    status: mandateKeyStatus(k),
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

/**
 * The read-back at /keys/{account_id}/{key_id}: the key, its standing and its owner named as
 * every public answer names an account (CONTRACT "The speaking account": the verified
 * organisation's legal name and LEI, or a name marked `name_verified: false`) — a key id is
 * unique per account only, so who holds it is part of the answer.
 */
export function serializePublicMandateKey(k: Row, owner: AccountProfile) {
  return {
    ...serializeMandateKey(k),
    account_id: k.accountId,
    account: owner,
    jwk: { kty: "OKP" as const, crv: "Ed25519" as const, x: k.publicKey, kid: k.keyId, alg: "EdDSA" as const, use: "sig" as const },
  };
}

/**
 * Validate a registration body. Private key material (a `d` or `private_key` field, a
 * 64-byte or PKCS#8 key, a PEM private key) has its own code and is never stored or
 * echoed. The principal is the API key's account: an `account_id` in the body is refused.
 */
export function parseMandateKeyCreate(body: Record<string, unknown>) {
  const leaked = findPrivateKeyField(body);
  if (leaked) throw ApiError.fromField(leaked);
  for (const f of ["account_id", "principal"]) {
    if (Object.prototype.hasOwnProperty.call(body, f)) {
      throw new ApiError("field_not_allowed", `'${f}' cannot be sent: a mandate key belongs to the account of the API key.`, f);
    }
  }
  if (typeof body.public_key === "string") {
    const parsed = parseMandatePublicKey(body.public_key);
    if (!parsed.ok) throw ApiError.fromField(parsed.error);
  }
  return parseOrThrow(mandateKeyCreateSchema, body);
}

export async function createMandateKey(db: Db, auth: AuthContext, input: z.infer<typeof mandateKeyCreateSchema>) {
  const parsed = parseMandatePublicKey(input.public_key);
  if (!parsed.ok) throw ApiError.fromField(parsed.error);
  const [row] = await db
    .insert(mandateKeys)
    .values({ keyId: input.key_id, accountId: auth.accountId, environment: auth.environment, algorithm: "Ed25519", publicKey: parsed.base64url })
    .onConflictDoNothing({ target: [mandateKeys.accountId, mandateKeys.keyId] })
    .returning();
  // Only this account's own keys (either environment, revoked or not) can hold the id: another account's never does.
  if (!row) throw new ApiError("mandate_key_exists", `This account already registered the key_id '${input.key_id}' (ids are never reused, revoked keys included). Choose another.`, "key_id");
  return serializeMandateKey(row);
}

/** The key's account and environment only, oldest first, revoked keys included. */
export async function listMandateKeys(db: Db, auth: AuthContext) {
  const rows = await db
    .select()
    .from(mandateKeys)
    .where(and(eq(mandateKeys.accountId, auth.accountId), eq(mandateKeys.environment, auth.environment)))
    .orderBy(asc(mandateKeys.createdAt), asc(mandateKeys.keyId));
  return { object: "list" as const, data: rows.map(serializeMandateKey), has_more: false };
}

const notFound = (keyId: string) =>
  new ApiError("mandate_key_not_found", `No mandate key ${keyId.slice(0, 100)} for this API key.`, "key_id");

/**
 * Revoke: the key stays published with status `revoked` and its `revoked_at`. Revoking a
 * revoked key changes nothing and answers the same object (a retried DELETE succeeds).
 * Another account's or environment's key is 404, like an unknown one.
 */
export async function revokeMandateKey(db: Db, auth: AuthContext, keyId: string) {
  if (!MANDATE_KEY_ID_RE.test(keyId)) throw notFound(keyId);
  const owned = and(eq(mandateKeys.keyId, keyId), eq(mandateKeys.accountId, auth.accountId), eq(mandateKeys.environment, auth.environment));
  const [revoked] = await db.update(mandateKeys).set({ revokedAt: new Date() }).where(and(owned, isNull(mandateKeys.revokedAt))).returning();
  if (revoked) {
    // Records signed with it show the key's standing: their cached views go, here and elsewhere.
    const dependency = mandateKeyDependency({ accountId: auth.accountId, keyId });
    await notifyStatusChanged(db, [dependency]);
    invalidateStatus(dependency);
    return serializeMandateKey(revoked);
  }
  const [row] = await db.select().from(mandateKeys).where(owned);
  if (!row) throw notFound(keyId);
  return serializeMandateKey(row);
}

export const publicMandateKeyNotFound = (keyId: string) =>
  new ApiError("mandate_key_not_found", `No mandate key ${keyId.slice(0, 100)} in that account.`, "key_id");

/** Several accounts hold this key id: the bare address cannot say whose; each account's own address can. */
export const mandateKeyAmbiguous = (keyId: string, accountIds: readonly string[]) =>
  new ApiError(
    "mandate_key_ambiguous",
    `More than one account registered a mandate key '${keyId.slice(0, 100)}' (ids are unique within an account): read it back ` +
      `with its account, GET /keys/{account_id}/${keyId.slice(0, 100)} — the account_id a mandate signs. Accounts holding it: ` +
      `${accountIds.join(", ")}.`,
    "key_id",
  );

/** How many accounts the bare address lists when it cannot answer with one key. */
const AMBIGUOUS_LISTED = 10;

/**
 * The spec's public read-back by key id alone (/keys/{key_id}, no API key). Key ids are unique
 * within an account only (issue 29): when exactly one account holds the id, its key with the
 * owner named — so a copied id can never pass for someone else's key, the reader sees whose it
 * is; when several do, 409 `mandate_key_ambiguous` listing the accounts; none, null. One
 * indexed read (mandate_keys_key_id_idx).
 */
export async function getMandateKeyById(db: Db, keyId: string) {
  if (!MANDATE_KEY_ID_RE.test(keyId)) return null;
  const rows = await db.select().from(mandateKeys).where(eq(mandateKeys.keyId, keyId)).orderBy(asc(mandateKeys.createdAt)).limit(AMBIGUOUS_LISTED);
  if (rows.length === 0) return null;
  if (rows.length > 1) throw mandateKeyAmbiguous(keyId, rows.map((r) => r.accountId));
  return serializePublicMandateKey(rows[0]!, await getAccountProfile(db, rows[0]!.accountId));
}

async function readBack(db: Db, accountId: string, keyId: string) {
  const [row] = await db.select().from(mandateKeys).where(and(eq(mandateKeys.accountId, accountId), eq(mandateKeys.keyId, keyId)));
  return row ? serializePublicMandateKey(row, await getAccountProfile(db, accountId)) : null;
}

/** One account's key by id, its owner named (the public read-back /keys/{account_id}/{key_id}). */
export async function getPublicMandateKey(db: Db, accountId: string, keyId: string) {
  if (!ACCOUNT_ID_RE.test(accountId) || !MANDATE_KEY_ID_RE.test(keyId)) return null;
  return readBack(db, accountId, keyId);
}

/** The caller's own key by id, either environment (the old address /keys/{key_id}, with an API key). */
export async function getOwnMandateKey(db: Db, auth: AuthContext, keyId: string) {
  if (!MANDATE_KEY_ID_RE.test(keyId)) return null;
  return readBack(db, auth.accountId, keyId);
}
