import type { AuthContext } from "@/lib/accounts/types";
import { claimModuleFor } from "@/lib/claims/registry";
import type { CheckOutcome, ViewExtras } from "@/lib/claims/types";
import type { Db } from "@/lib/db/client";
import { loadLinkTargets, type LinkedTarget } from "./public-view";
import type { RecordCreateInput } from "./schemas";

/** A check's outcome and, for one that passed, the records the new record rests on (written with it). */
export type Checked = { outcome: CheckOutcome; linked: LinkedTarget[]; extras?: ViewExtras };

/**
 * One claim check, as the create and the batch run it: the records the request names are
 * loaded (this account's only), the type's check decides, and the links it declared whose
 * targets exist go with the record.
 */
export async function checkClaim(db: Db, auth: AuthContext, input: RecordCreateInput, now: Date): Promise<Checked> {
  const mod = claimModuleFor(input.claim_type);
  const wanted = mod.links?.(input) ?? [];
  const targets = await loadLinkTargets(db, auth.accountId, wanted);
  const outcome = await mod.check(input, { auth, now, db, linked: targets });
  const linked = outcome.kind === "fail"
    ? []
    : wanted.flatMap((w) => (targets.has(w.role) ? [{ role: w.role, target: targets.get(w.role)! }] : []));
  const extras = outcome.kind === "fail" || !mod.viewExtras
    ? undefined
    : (await mod.viewExtras(db, [{ id: null, accountId: auth.accountId, evidence: outcome.publicEvidence }]))[0];
  return { outcome, linked, extras };
}
