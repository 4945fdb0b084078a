import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { recordLinks } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import { claimModuleFor, principalClaimTypes, principalOf } from "@/lib/claims/registry";
import type { Db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { writeEvent } from "@/lib/outbox/write-event";
import { isIssued } from "@/lib/record-model/effective-status";
import { getRecordOrThrow } from "@/lib/record-model/get-record";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { loadPublicView } from "@/lib/public/record/public-view";
import { loadLinkTargets } from "@/lib/record-model/link-targets";
import { recordIdSchema } from "@/lib/record-model/schemas";
import { serializeRecord } from "@/lib/public/record/serialize-record";
import { invalidateStatus } from "@/lib/record-model/status-cache";

export const principalChangeSchema = z
  .strictObject({
    principal_record_id: recordIdSchema.nullable().describe("A public, active, checked company_identity record of this account; null unlinks."),
  })
  .meta({ id: "PrincipalChange" });

/**
 * Link an agent authorization to its principal's company record, or unlink it (spec 2.3
 * rule 4). The link is the record's `principal_record` row in record_links; the change, its
 * `principal_link.changed` event and the cache notification commit together. The agent's own
 * status never changes; its signed status shows the new standing at once.
 */
export async function changePrincipal(db: Db, auth: AuthContext, id: string, raw: unknown) {
  const input = parseOrThrow(principalChangeSchema, raw);
  const record = await db.transaction(async (tx) => {
    const row = await getRecordOrThrow(tx, auth, id, { forUpdate: true });
    const principal = principalOf(row.claimType);
    if (!principal) {
      throw new ApiError("field_not_allowed", `Only ${principalClaimTypes().join(" or ")} records have a principal; this is ${row.claimType}.`, "principal_record_id");
    }
    const ROLE = principal.role;
    if (!isIssued(row.status)) throw new ApiError("invalid_transition", `A ${row.status} submission has no principal to change.`, "id");
    const [before] = await tx.select().from(recordLinks).where(and(eq(recordLinks.recordId, row.id), eq(recordLinks.role, ROLE)));
    const next = input.principal_record_id;
    if (next !== null) {
      const target = (await loadLinkTargets(tx, auth.accountId, [{ role: ROLE, targetId: next }])).get(ROLE);
      const problem = principal.problem(target, row.environment);
      if (problem) throw ApiError.fromField(problem);
    }
    const previous = before?.targetId ?? null;
    if (previous !== next) {
      await tx.delete(recordLinks).where(and(eq(recordLinks.recordId, row.id), eq(recordLinks.role, ROLE)));
      if (next !== null) await tx.insert(recordLinks).values({ recordId: row.id, role: ROLE, targetId: next });
    }
    const body = serializeRecord(await loadPublicView(tx, row));
    if (previous !== next) {
      await writeEvent(tx, {
        accountId: row.accountId, environment: row.environment, at: new Date(), type: "principal_link.changed",
        data: { record: body, previous_principal_record_id: previous, principal_record_id: next },
      });
      await notifyStatusChanged(tx, [row.id]);
    }
    return body;
  });
  invalidateStatus(id);
  return record;
}
