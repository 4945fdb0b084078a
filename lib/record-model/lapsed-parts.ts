import { asc, eq } from "drizzle-orm";
import { recordLinks, records, type RecordStatus } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { effectiveStatus, isIssued } from "./effective-status";

/** A record another one rests on that is not active now, by the role it plays. */
export type LapsedPart = { role: string; id: string; status: RecordStatus; named: boolean };

/** The parts (record_links) of `recordId` that are not active now. */
export async function lapsedParts(db: DbOrTx, recordId: string, now = Date.now()): Promise<LapsedPart[]> {
  const parts = await db
    .select({ role: recordLinks.role, id: records.id, status: records.status, expiresAt: records.expiresAt, statusChangedAt: records.statusChangedAt, visibility: records.visibility })
    .from(recordLinks)
    .innerJoin(records, eq(records.id, recordLinks.targetId))
    .where(eq(recordLinks.recordId, recordId))
    .orderBy(asc(recordLinks.role));
  return parts.flatMap((p) => {
    const { status } = effectiveStatus(p, now);
    // A part that is private (or was never issued) is never named in public.
    return status === "active" ? [] : [{ role: p.role, id: p.id, status, named: p.visibility === "public" && isIssued(status) }];
  });
}

/** The public reason a dependent is suspended with: "Part domain_record PRS-… is no longer active (revoked)." */
export function partLapsedReason(p: LapsedPart): string {
  return `Part ${p.role} ${p.named ? p.id : "(a record that is not public)"} is no longer active (${p.status}).`;
}
