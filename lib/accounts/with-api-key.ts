import { authenticateApiKey } from "@/lib/accounts/authenticate-api-key";
import { requireScope, type KeyedOperation } from "@/lib/accounts/scopes";
import type { AuthContext } from "@/lib/accounts/types";
import { getDb, type Db } from "@/lib/db/client";
import { api, type ApiCtx, type ApiHandler } from "@/lib/http/handler";

export type AuthedCtx = ApiCtx & { auth: AuthContext; db: Db };

/**
 * `export const POST = withApiKey("createRecord", handler)`: authenticate, check that the key's
 * scopes allow the operation (403 insufficient_scope naming the one it needs, lib/accounts/scopes.ts),
 * then run. Never sends CORS headers.
 */
export function withApiKey(operation: KeyedOperation, handler: ApiHandler<AuthedCtx>) {
  return api(async (ctx) => {
    const db = await getDb();
    const auth = await authenticateApiKey(db, ctx.req.headers.get("authorization"));
    requireScope(auth.scopes, operation);
    return handler({ ...ctx, auth, db });
  });
}

/** Public, keyless endpoints: CORS for everyone, a database handle, nothing else. */
export function publicApi(handler: ApiHandler<ApiCtx & { db: Db }>) {
  return api(async (ctx) => handler({ ...ctx, db: await getDb() }), { cors: true });
}
