import { and, eq } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";

export const recordNotFound = (id: string) =>
  new ApiError("record_not_found", `No record ${id.slice(0, 40)} for this API key.`, "id");

/** Keyless endpoints: no issued record under that id (pending and rejected ones included). */
export const publicRecordNotFound = (id: string) =>
  new ApiError("record_not_found", `No issued record ${id.slice(0, 40)}.`, "id");

/** Tenancy lives in the WHERE clause: another account's (or environment's) record is 404. */
export async function getRecordOrThrow(db: DbOrTx, auth: AuthContext, id: string, opts: { forUpdate?: boolean } = {}) {
  if (!RECORD_ID_RE.test(id)) throw recordNotFound(id);
  const q = db
    .select()
    .from(records)
    .where(and(eq(records.id, id), eq(records.accountId, auth.accountId), eq(records.environment, auth.environment)));
  const [row] = opts.forUpdate ? await q.for("update") : await q;
  if (!row) throw recordNotFound(id);
  return row;
}

/** Public lookups by id (certificate, status, signature): any account, issued records only. */
export async function getPublicRecord(db: DbOrTx, id: string) {
  if (!RECORD_ID_RE.test(id)) return null;
  const [row] = await db.select().from(records).where(eq(records.id, id));
  if (!row || row.status === "pending_review" || row.status === "rejected") return null;
  return row;
}
