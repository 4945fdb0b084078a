import { authenticateApiKey } from "@/lib/accounts/authenticate-api-key";
import type { AuthContext } from "@/lib/accounts/types";
import { getDb, type Db } from "@/lib/db/client";
import { api, type ApiCtx, type ApiHandler } from "./handler";

export type AuthedCtx = ApiCtx & { auth: AuthContext; db: Db };

/** `export const POST = withApiKey(handler)`: authenticate, then run. Never sends CORS headers. */
export function withApiKey(handler: ApiHandler<AuthedCtx>) {
  return api(async (ctx) => {
    const db = await getDb();
    const auth = await authenticateApiKey(db, ctx.req.headers.get("authorization"));
    return handler({ ...ctx, auth, db });
  });
}

/** Public, keyless endpoints: CORS for everyone, a database handle, nothing else. */
export function publicApi(handler: ApiHandler<ApiCtx & { db: Db }>) {
  return api(async (ctx) => handler({ ...ctx, db: await getDb() }), { cors: true });
}
