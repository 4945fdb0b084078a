import { and, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { apiKeys } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { ApiKeyRefused, createApiKey } from "./create-api-key";
import { keyDisplay } from "./key-display";
import { grantedScopes, normaliseScopes, SCOPES, type Scope } from "./scopes";
import { announceAccountChange } from "./auth-cache";
import type { AuthContext } from "./types";

export const apiKeyCreateSchema = z
  .strictObject({
    scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length).optional()
      .describe("What the key may do (see each operation's scope); omitted: everything the calling key may. A key never gets a scope its maker lacks."),
  })
  .meta({ id: "ApiKeyCreate" });

type KeyRow = Pick<typeof apiKeys.$inferSelect, "id" | "environment" | "keyPrefix" | "lastFour" | "scopes" | "createdAt" | "lastUsedAt" | "revokedAt">;

function serializeApiKey(k: KeyRow) {
  return {
    object: "api_key" as const,
    id: k.id,
    environment: k.environment,
    display: keyDisplay(k),
    scopes: k.scopes ?? null,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}

/**
 * A new key of the calling key's account and environment, restricted to `scopes` (each within the
 * calling key's own: a restricted key cannot mint a wider one); without `scopes`, the calling key's
 * own. The secret is in this answer only.
 */
export async function createApiKeyForKey(db: Db, auth: AuthContext, input: z.infer<typeof apiKeyCreateSchema>) {
  const scopes: Scope[] | null = input.scopes ? normaliseScopes(input.scopes, auth.scopes) : auth.scopes;
  try {
    const made = await createApiKey(db, auth.accountId, auth.environment, scopes);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, made.keyId));
    return { ...serializeApiKey(row!), key: made.key };
  } catch (e) {
    if (e instanceof ApiKeyRefused) throw new ApiError(e.code === "plan_inactive" ? "plan_inactive" : "forbidden", e.message);
    throw e;
  }
}

/** The account's keys of the calling key's environment, newest first, revoked ones too (no secrets). */
export async function listApiKeysForKey(db: Db, auth: AuthContext) {
  const rows = await db.select().from(apiKeys)
    .where(and(eq(apiKeys.accountId, auth.accountId), eq(apiKeys.environment, auth.environment)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return { object: "list" as const, data: rows.map(serializeApiKey), has_more: false };
}

/**
 * Revoke a key of the calling key's account and environment (itself included). A restricted key
 * may only revoke keys whose scopes its own grant — an agent's key cannot shut its owner's
 * unrestricted key out. Another account's or environment's key, or an unknown id, is 404.
 */
export async function revokeApiKeyForKey(db: Db, auth: AuthContext, id: string) {
  const notFound = new ApiError("api_key_not_found", `No API key ${id.slice(0, 40)} in this key's environment.`, "id");
  if (!/^key_[0-9a-z]{1,64}$/.test(id)) throw notFound;
  const [k] = await db.select().from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, auth.accountId), eq(apiKeys.environment, auth.environment)));
  if (!k) throw notFound;
  const mine = grantedScopes(auth.scopes);
  if (![...grantedScopes(k.scopes)].every((s) => mine.has(s))) {
    throw new ApiError("insufficient_scope", "A restricted key can only revoke keys within its own scopes.", "id");
  }
  const [row] = await db.update(apiKeys).set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, k.id), isNull(apiKeys.revokedAt))).returning();
  announceAccountChange(); // committed: cached lookups of the key go before the answer
  return serializeApiKey(row ?? k);
}
