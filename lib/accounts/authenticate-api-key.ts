import { and, eq, isNull, lt, or } from "drizzle-orm";
import { accounts, apiKeys } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { API_KEY_RE } from "@/lib/ids";
import { hashApiKey } from "./api-key-hash";
import { authGeneration, cachedAuth, rememberAuth } from "./auth-cache";
import type { AuthContext } from "./types";

const LAST_USED_EVERY_MS = 60_000;

/**
 * Bearer key → account. Missing, malformed, unknown and revoked keys are all 401; a header
 * that is not `Bearer <key>` says how to send it (a bare key is the usual slip).
 */
export async function authenticateApiKey(db: Db, authorization: string | null): Promise<AuthContext> {
  if (!authorization) {
    throw new ApiError("missing_api_key", "Send your API key as 'Authorization: Bearer <key>'.");
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const secret = m?.[1];
  if (!secret) throw notBearer(authorization);
  if (!API_KEY_RE.test(secret)) throw invalid();
  const hash = hashApiKey(secret);
  const now = Date.now();
  const hit = cachedAuth(hash, now);
  if (hit) {
    if (now - hit.lastUsedWrite > LAST_USED_EVERY_MS) {
      hit.lastUsedWrite = now;
      await touchLastUsed(db, hit.auth.keyId, now);
    }
    return hit.auth;
  }
  const generation = authGeneration(); // before the read: a change announced after it voids this lookup
  const [row] = await db
    .select({
      keyId: apiKeys.id, environment: apiKeys.environment, revokedAt: apiKeys.revokedAt, scopes: apiKeys.scopes,
      lastUsedAt: apiKeys.lastUsedAt, accountId: accounts.id, plan: accounts.plan, role: accounts.role, accountName: accounts.name,
      suspendedAt: accounts.suspendedAt,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.keyHash, hash));
  if (!row) throw invalid();
  if (row.revokedAt) throw new ApiError("api_key_revoked", "This API key has been revoked.");
  // A suspended account's keys are refused until staff reinstate it (lib/staff/suspend-account.ts); never cached.
  if (row.suspendedAt) throw new ApiError("account_suspended", "This account is suspended by Proof Records staff: its API keys are refused until it is reinstated.");
  let lastUsedWrite = row.lastUsedAt?.getTime() ?? 0;
  if (now - lastUsedWrite > LAST_USED_EVERY_MS) {
    lastUsedWrite = now;
    await touchLastUsed(db, row.keyId, now);
  }
  const auth: AuthContext = {
    accountId: row.accountId, environment: row.environment, keyId: row.keyId, plan: row.plan, role: row.role, accountName: row.accountName,
    scopes: row.scopes ?? null,
  };
  rememberAuth(hash, auth, lastUsedWrite, generation);
  return auth;
}

/** At most one write a minute per key; a lost race only repeats the same write. */
async function touchLastUsed(db: Db, keyId: string, now: number) {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now - LAST_USED_EVERY_MS)))));
}

const invalid = () => new ApiError("invalid_api_key", "The API key is not valid.");

/** The header holds something other than `Bearer <key>`; the key itself, if any, is never echoed. */
function notBearer(authorization: string) {
  const message = /^\s*prs_(sandbox|live)_/.test(authorization)
    ? "The Authorization header holds a bare API key; send it as 'Authorization: Bearer <key>'."
    : "The Authorization header must be 'Bearer <key>' (the word Bearer, a space, then your API key).";
  return new ApiError("invalid_api_key", message);
}
