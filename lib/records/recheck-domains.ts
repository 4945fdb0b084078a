import { and, eq, lte } from "drizzle-orm";
import { records } from "@/drizzle/schema";
import { resolveTxt } from "@/lib/connectors/dns";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { applyTransition } from "./apply-transition";
import { invalidateStatus } from "./status-cache";

/**
 * Re-check the TXT record behind active domain_ownership records that are due. Gone →
 * suspended with the reason; present → next re-check scheduled; resolver down → try
 * again next round (unknown is not evidence of absence). DNS is asked outside any lock.
 */
export async function recheckDomainRecords(db: Db, limit = 50): Promise<{ checked: number; suspended: number }> {
  const now = new Date();
  const due = await db
    .select({ id: records.id, evidence: records.evidencePublic, recheckAt: records.recheckAt })
    .from(records)
    .where(and(eq(records.claimType, "domain_ownership"), eq(records.status, "active"), lte(records.recheckAt, now)))
    .limit(limit);
  let suspended = 0;
  for (const d of due) {
    const { txt_name, txt_value } = d.evidence as { txt_name: string; txt_value: string };
    const lookup = await resolveTxt(txt_name);
    if (lookup.kind === "unreachable") continue;
    const present = lookup.kind === "found" && lookup.values.includes(txt_value);
    const changed = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(records).where(eq(records.id, d.id)).for("update");
      // Someone else moved or re-checked it meanwhile.
      if (!row || row.status !== "active" || row.recheckAt?.getTime() !== d.recheckAt?.getTime()) return false;
      const at = new Date();
      const recheckAt = new Date(at.getTime() + getEnv().DOMAIN_RECHECK_INTERVAL_MS);
      await tx.update(records).set({ recheckAt }).where(eq(records.id, row.id));
      if (present) return false;
      await applyTransition(tx, { ...row, recheckAt }, {
        next: "suspended", at, by: "system:recheck", operation: "suspend",
        reason: `The TXT record ${txt_name} = "${txt_value}" is no longer published.`,
      });
      return true;
    });
    if (changed) {
      invalidateStatus(d.id);
      suspended++;
    }
  }
  return { checked: due.length, suspended };
}
