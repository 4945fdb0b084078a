import { and, desc, eq, inArray, lt, lte, not, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { records, type RecordStatus } from "@/drizzle/schema";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/accounts/types";
import type { Db } from "@/lib/db/client";
import type { listRecordsQuerySchema } from "@/lib/record-model/schemas";
import { loadPublicViews } from "@/lib/public/record/public-view";
import { serializeRecord } from "@/lib/public/record/serialize-record";

/** Filter on the status a client sees: past expires_at reads as expired before the sweep writes it. */
function statusIs(status: RecordStatus): SQL {
  const lapsed = and(inArray(records.status, ["active", "suspended"]), lte(records.expiresAt, sql`now()`));
  if (status === "expired") return or(eq(records.status, "expired"), lapsed)!;
  if (status === "active" || status === "suspended") return and(eq(records.status, status), not(lapsed!))!;
  return eq(records.status, status);
}

/**
 * Newest first, cursor-paginated (`starting_after` = last id of the previous page). The API
 * lists the key's environment; the portal (signed in as the account, not with a key) may ask
 * for both at once with `{ bothEnvironments: true }`.
 */
export async function listRecords(db: Db, auth: AuthContext, q: z.infer<typeof listRecordsQuerySchema>, opts: { bothEnvironments?: boolean } = {}) {
  const inEnvironment = opts.bothEnvironments ? undefined : eq(records.environment, auth.environment);
  const conds: (SQL | undefined)[] = [eq(records.accountId, auth.accountId), inEnvironment];
  if (q.status) conds.push(statusIs(q.status));
  if (q.claim_type) conds.push(eq(records.claimType, q.claim_type));
  if (q.starting_after) {
    const [cursor] = await db
      .select({ createdAt: records.createdAt, id: records.id })
      .from(records)
      .where(and(eq(records.id, q.starting_after), eq(records.accountId, auth.accountId), inEnvironment));
    // An unknown cursor would silently restart at page one and loop a client forever.
    if (!cursor) throw new ApiError("invalid_value", `'starting_after' names no record of this API key.`, "starting_after");
    conds.push(or(lt(records.createdAt, cursor.createdAt), and(eq(records.createdAt, cursor.createdAt), lt(records.id, cursor.id))));
  }
  const rows = await db
    .select()
    .from(records)
    .where(and(...conds))
    .orderBy(desc(records.createdAt), desc(records.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  // One query for the whole page's history and one for its links, not one per record.
  const data = (await loadPublicViews(db, page)).map(serializeRecord);
  return { object: "list" as const, data, has_more: rows.length > q.limit };
}
