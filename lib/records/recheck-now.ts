import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { RECORD_ID_RE } from "@/lib/ids";

/**
 * Make an issued record's re-check due now — the operator's "look again" (a customer fixed
 * their DNS record and asks support for a new look, or staff doubt a source). Nothing is
 * decided here: the next sweep round runs the re-check exactly as a scheduled one, with the
 * same outcome rules (lib/records/recheck-records.ts) — so a record its owner or staff
 * suspended is left due, not asked, until it is reinstated. Only records the scheduler
 * re-checks (a type with a monitor, still live) have a re-check to bring forward.
 */
export async function recheckNow(db: Db, recordId: string): Promise<{ record_id: string; recheck_at: string }> {
  // Not get-record's recordNotFound: its message speaks to an API key, this one to the operator (as staff-action's).
  const notFound = () => new ApiError("record_not_found", `No issued record ${recordId.slice(0, 40)}.`, "id");
  if (!RECORD_ID_RE.test(recordId)) throw notFound();
  const [row] = await db.update(records).set({ recheckAt: sql`now()` })
    .where(and(eq(records.id, recordId), isNotNull(records.recheckAt), inArray(records.status, ["active", "suspended"])))
    .returning({ id: records.id, recheckAt: records.recheckAt });
  if (row) return { record_id: row.id, recheck_at: row.recheckAt!.toISOString() };
  const [exists] = await db.select({ status: records.status }).from(records).where(eq(records.id, recordId));
  if (!exists) throw notFound();
  throw new ApiError("not_rechecked", `${recordId} has no re-check to bring forward: its type is not re-checked, or it is no longer live (${exists.status}).`, "id");
}
