import { and, asc, eq, inArray } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import { loadAccountProfiles, NO_PROFILE } from "@/lib/accounts/account-profile";
import { accountPartClaimTypes, claimModuleFor } from "@/lib/claims/registry";
import type { Tx } from "@/lib/db/client";
import { applyTransition } from "./apply-transition";
import { effectiveStatus, isIssued } from "@/lib/record-model/effective-status";
import { lastMover, ORGANISATION_ACTOR } from "@/lib/record-model/standing-actor";

/** At most this many of an account's records follow one change of its organisation in one transaction. */
const MAX_FOLLOWERS = 5000;

/**
 * An organisation's lapse reaches what rests on it (issue 38, item 7). Called inside the
 * transaction that changed the account's organisation (lapsed, removed, or verified again),
 * after the change: every active record of the account whose part rests on its verified
 * organisation (`policy.accountPartLapsed`: a listing's operator) and no longer stands is
 * suspended by `system:organisation` — "The operator's organisation verification lapsed
 * (‹lapseReason›)." — with its `record.status_changed` event and log entry; a record that
 * `system:organisation` suspended is reinstated by it once the part stands again. Never a
 * suspension of the owner, staff or another system actor. Returns the ids it moved.
 */
export async function followOrganisation(tx: Tx, accountId: string, lapseReason: string | null, at: Date): Promise<string[]> {
  const types = accountPartClaimTypes();
  if (types.length === 0) return [];
  const rows = await tx.select().from(records)
    .where(and(eq(records.accountId, accountId), inArray(records.claimType, types), inArray(records.status, ["active", "suspended"])))
    .orderBy(asc(records.id)).limit(MAX_FOLLOWERS).for("update");
  if (rows.length === 0) return [];
  const profile = (await loadAccountProfiles(tx, [accountId], at)).get(accountId) ?? NO_PROFILE;
  const moved: string[] = [];
  for (const row of rows) {
    const current = effectiveStatus(row, at.getTime()).status; // one past its expiry is left to the sweep
    if (!isIssued(current)) continue;
    const lapsed = claimModuleFor(row.claimType).policy?.accountPartLapsed?.(row.evidencePublic ?? {}, profile) ?? null;
    if (current === "active" && lapsed !== null) {
      await applyTransition(tx, row, { next: "suspended", at, by: ORGANISATION_ACTOR, operation: "suspend", reason: `The operator's organisation verification lapsed (${lapseReason ?? "no reason given"}).` });
      moved.push(row.id);
    } else if (current === "suspended" && lapsed === null && (await lastMover(tx, row.id)) === ORGANISATION_ACTOR) {
      await applyTransition(tx, row, { next: "active", at, by: ORGANISATION_ACTOR, operation: "reinstate", reason: "The operator's organisation is verified again." });
      moved.push(row.id);
    }
  }
  return moved;
}
