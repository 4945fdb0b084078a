import { getAccountProfile } from "@/lib/accounts/account-profile";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { records } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import { claimModuleFor } from "@/lib/claims/registry";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { getRecordOrThrow } from "@/lib/record-model/get-record";
import { loadPublicView } from "@/lib/public/record/public-view";
import { loadStoredLinkTargets } from "@/lib/record-model/link-targets";
import { serializeRecord } from "@/lib/public/record/serialize-record";

export const evidenceRefreshSchema = z
  .strictObject({
    evidence: z.record(z.string(), z.unknown()).describe("What the claim type takes to refresh its evidence: for dex_control `{challenge_id, signature}` of a new wallet challenge."),
  })
  .meta({ id: "EvidenceRefresh" });

/**
 * POST /api/v1/records/{id}/evidence: a submission still waiting for a reviewer gets fresh
 * evidence checks (e.g. a newly signed wallet challenge), so a reviewer can approve it within
 * its type's time limit without a new submission. The type's `checking.refresh` checks what is sent
 * (outside the transaction); the evidence is stored only if the submission is still pending.
 */
export async function refreshEvidence(db: Db, auth: AuthContext, id: string, raw: unknown) {
  const input = parseOrThrow(evidenceRefreshSchema, raw);
  const row = await getRecordOrThrow(db, auth, id);
  const mod = claimModuleFor(row.claimType);
  if (!mod.checking?.refresh) throw new ApiError("invalid_transition", `${row.claimType} submissions take no evidence refresh; submit again.`, "id");
  if (row.status !== "pending_review") throw new ApiError("invalid_transition", `This record is ${row.status}: only a submission waiting for a reviewer can refresh its evidence.`, "id");
  // The records the submission was made resting on (its record_links): its stored evidence is not a request to parse again.
  const linked = await loadStoredLinkTargets(db, row.id, auth.accountId);
  const result = await mod.checking.refresh({ subject: row.subject, evidence: row.evidencePublic }, input.evidence, {
    auth, now: new Date(), db, linked, account: () => getAccountProfile(db, auth.accountId),
  });
  if ("error" in result) throw ApiError.fromField(result.error);
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(records)
      .set({ evidencePublic: result.evidence })
      .where(and(eq(records.id, row.id), eq(records.status, "pending_review")))
      .returning();
    if (!updated) throw new ApiError("invalid_transition", "This submission was decided meanwhile; nothing was changed.", "id");
    const failed = await result.commit?.(tx, row.id);
    if (failed) throw ApiError.fromField(failed);
    return serializeRecord(await loadPublicView(tx, updated));
  });
}
