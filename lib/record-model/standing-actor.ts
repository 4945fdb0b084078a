import { desc, eq } from "drizzle-orm";
import { recordHistory } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";

/** Who a re-check's suspension is written by; only such suspensions are lifted by a later pass. */
export const RECHECK_ACTOR = "system:recheck";
/** Who moves a record that rests on others when one of its parts lapses or every part stands again. */
export const PART_ACTOR = "system:part";
/** Staff actions from the console: `staff:<accountId>`; from the operator CLI without an account: `staff:operator`. */
export const staffActor = (accountId: string | null) => `staff:${accountId ?? "operator"}`;

/**
 * Whose move a history `by` is (CONTRACT "What still stands"): the owner (`owner:<key>`), the
 * service itself (`system:recheck`, `system:part`, `system:expiry`, …) or its staff (`staff:…`,
 * a reviewer's `reviewer:…`). Only the owner may lift the owner's own suspension.
 */
export function moverKind(by: string): "owner" | "system" | "staff" {
  const kind = by.split(":")[0];
  if (kind === "system") return "system";
  if (kind === "staff" || kind === "reviewer") return "staff";
  return "owner";
}

/** The `by` of a record's last history entry: who put it in its present status. */
export async function lastMover(db: DbOrTx, id: string): Promise<string | null> {
  const [last] = await db.select({ by: recordHistory.by }).from(recordHistory).where(eq(recordHistory.recordId, id)).orderBy(desc(recordHistory.seq)).limit(1);
  return last?.by ?? null;
}

/** Who suspends a record resting on its account's verified organisation when that lapses, and reinstates it when it is verified again. */
export const ORGANISATION_ACTOR = "system:organisation";

/**
 * Staff suspending a whole account (lib/staff/suspend-account.ts) suspend each of its live
 * records as `staff:account:<staffId>` (shown as staff, like any staff move); reinstating the
 * account reinstates exactly the records whose suspension this was.
 */
export const ACCOUNT_SUSPENSION_PREFIX = "staff:account:";
export const accountSuspensionActor = (staffAccountId: string | null) => `${ACCOUNT_SUSPENSION_PREFIX}${staffAccountId ?? "operator"}`;
