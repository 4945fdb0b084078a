import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import { documentedClaimTypes } from "@/lib/claims/registry";
import { reject } from "./reject-submission";
import { records } from "@/drizzle/schema";
import type { Db } from "@/lib/db/client";
import { applyTransition } from "./apply-transition";
import { invalidateStatus } from "@/lib/record-model/status-cache";

/** Records whose validity ended but that still read as live in the table: what expireDueRecords moves. */
export const expiryDue = () => and(inArray(records.status, ["active", "suspended"]), lte(records.expiresAt, sql`now()`));

/**
 * Submissions a type does not let wait past `now` (closeStaleSubmissions), or undefined when no
 * type closes submissions.
 */
export function staleSubmissionsDue(now = new Date()) {
  const each = documentedClaimTypes().flatMap((mod) => (mod.review?.pendingExpiry ? [staleOf(mod.type, mod.review.pendingExpiry.afterMs, now)] : []));
  return each.length === 0 ? undefined : or(...each);
}

const staleOf = (type: string, afterMs: number, now: Date) =>
  and(eq(records.status, "pending_review"), eq(records.claimType, type), lte(records.createdAt, new Date(now.getTime() - afterMs)));

/**
 * Persist and announce expiry of records whose expires_at has passed (they already read
 * as expired). Batches are claimed with SKIP LOCKED so several processes can sweep at once.
 */
export async function expireDueRecords(db: Db, batchSize = 200): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(records)
        .where(expiryDue())
        .limit(batchSize)
        .for("update", { skipLocked: true });
      for (const row of due) {
        await applyTransition(tx, row, {
          next: "expired", at: row.expiresAt!, reason: "Validity period ended.", by: "system:expiry", operation: "expire",
        });
      }
      return due.map((r) => r.id);
    });
    invalidateStatus(ids);
    total += ids.length;
    if (ids.length < batchSize) return total;
  }
}

/**
 * Close submissions their claim type does not let wait (`review.pendingExpiry`: e.g. an exchange
 * trade whose key was not kept can never be checked again): rejected by `system:expiry` with
 * the type's reason, announced as record.rejected. Several processes may sweep at once (SKIP LOCKED).
 */
export async function closeStaleSubmissions(db: Db, now = new Date()): Promise<number> {
  let total = 0;
  for (const mod of documentedClaimTypes()) {
    if (!mod.review?.pendingExpiry) continue;
    const { afterMs, reason } = mod.review.pendingExpiry;
    const ids = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(records)
        .where(staleOf(mod.type, afterMs, now))
        .limit(200)
        .for("update", { skipLocked: true });
      for (const row of due) {
        await reject(tx, row, { at: now, by: "system:expiry", reason });
      }
      return due.map((r) => r.id);
    });
    total += ids.length;
  }
  return total;
}
