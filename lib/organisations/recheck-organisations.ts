import { and, eq, isNotNull, isNull, lte, or } from "drizzle-orm";
import { organisations } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { askRegister, notActiveReason, standsInRegister } from "./register-answer";
import { afterOrganisationChange, setOrganisationStanding } from "./set-organisation";

/**
 * The LEI re-check of verified organisations, in the sweep beside the records' re-checks:
 * every RECHECK_INTERVAL_MS (from `checkedAt`) the register is asked again. No record, or a
 * registration not ISSUED or an entity not ACTIVE → `lapsed` with the register's answer as
 * the reason; ISSUED/ACTIVE again → `verified`. An unreachable register changes nothing but
 * the next time. Organisations verified from documents (no LEI) are never re-checked.
 */
/** Verified organisations (with an LEI) whose register re-check is due at `now`. */
export function organisationsDue(now = new Date()) {
  const dueBefore = new Date(now.getTime() - getEnv().RECHECK_INTERVAL_MS);
  return and(isNotNull(organisations.lei), or(isNull(organisations.checkedAt), lte(organisations.checkedAt, dueBefore)));
}

/**
 * Bring a verified organisation's LEI re-check forward to now (the operator's `organisation
 * recheck`): the next sweep round asks the register under the scheduled re-check's rules.
 * Only an organisation verified with an LEI has one.
 */
export async function recheckOrganisationNow(db: Db, accountId: string): Promise<{ account_id: string; lei: string }> {
  const [row] = await db.update(organisations).set({ checkedAt: null })
    .where(and(eq(organisations.accountId, accountId), isNotNull(organisations.lei)))
    .returning({ accountId: organisations.accountId, lei: organisations.lei });
  if (!row) throw new ApiError("not_rechecked", `Account ${accountId.slice(0, 40)} has no organisation verified with an LEI: there is no register re-check to bring forward.`, "account");
  return { account_id: row.accountId, lei: row.lei! };
}

export async function recheckOrganisations(db: Db, limit = 20): Promise<{ checked: number; lapsed: number; restored: number }> {
  const now = new Date();
  const due = await db
    .select({ accountId: organisations.accountId, lei: organisations.lei, status: organisations.status, checkedAt: organisations.checkedAt })
    .from(organisations)
    .where(organisationsDue(now))
    .orderBy(organisations.checkedAt)
    .limit(limit);
  let lapsed = 0;
  let restored = 0;
  for (const d of due) {
    const lei = d.lei!;
    const answer = await askRegister(lei, now);
    const verdict = answer.result === "unreachable" ? null
      : answer.result === "not_found" ? { ok: false, reason: `The LEI register no longer has a record for ${lei}.` }
      : standsInRegister(answer) ? { ok: true, reason: null } : { ok: false, reason: notActiveReason(lei, answer) };
    const changed = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(organisations).where(eq(organisations.accountId, d.accountId)).for("update");
      // Re-verified, removed or checked by someone else meanwhile.
      if (!row || row.lei !== lei || row.checkedAt?.getTime() !== d.checkedAt?.getTime()) return null;
      const at = new Date();
      const next = verdict === null ? row.status : verdict.ok ? "verified" : "lapsed";
      if (next === row.status && (verdict === null || verdict.ok || row.statusReason === verdict.reason)) {
        await tx.update(organisations).set({ checkedAt: at }).where(eq(organisations.accountId, row.accountId));
        return null;
      }
      await setOrganisationStanding(tx, row.accountId, next, verdict?.ok ? null : verdict!.reason, at);
      return next === row.status ? null : next;
    });
    if (changed) afterOrganisationChange(d.accountId);
    if (changed === "lapsed") lapsed++;
    if (changed === "verified") restored++;
  }
  return { checked: due.length, lapsed, restored };
}
