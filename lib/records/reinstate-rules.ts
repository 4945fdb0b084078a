import { claimModuleFor } from "@/lib/claims/registry";
import type { DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { lapsedParts, partLapsedReason } from "./lapsed-parts";

/**
 * A record that stands only with its parts (`policy.followsParts`) is not reinstated — by its owner or
 * by staff — while one of them is not active: the system would have to suspend it again at
 * once. It is reinstated by the system when the part stands again.
 */
export async function refuseReinstateWhilePartsLapsed(db: DbOrTx, row: { id: string; claimType: string }) {
  if (!claimModuleFor(row.claimType).policy?.followsParts) return;
  const [lapsed] = await lapsedParts(db, row.id);
  if (lapsed) {
    throw new ApiError("invalid_transition", `${partLapsedReason(lapsed)} The record cannot be reinstated until every part it rests on is active.`, "operation");
  }
}
