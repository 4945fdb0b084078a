import { and, eq, inArray } from "drizzle-orm";
import { recordLinks, records } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import type { LinkTarget } from "./link-types";

/** The columns of a linked record every reader of links needs (its standing, what it is about). */
export const TARGET_COLUMNS = {
  id: records.id, accountId: records.accountId, environment: records.environment, claimType: records.claimType,
  subject: records.subject, status: records.status, evidenceLevel: records.evidenceLevel, visibility: records.visibility,
  expiresAt: records.expiresAt, statusChangedAt: records.statusChangedAt, evidencePublic: records.evidencePublic,
};

/** The records of this account a request names, by role: what a claim check gets as `ctx.linked`. */
export async function loadLinkTargets(db: DbOrTx, accountId: string, wanted: readonly { role: string; targetId: string }[]) {
  const out = new Map<string, LinkTarget>();
  const ids = [...new Set(wanted.map((w) => w.targetId))];
  if (ids.length === 0) return out;
  const rows = await db.select(TARGET_COLUMNS).from(records).where(and(inArray(records.id, ids), eq(records.accountId, accountId)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const w of wanted) {
    const t = byId.get(w.targetId);
    if (t) out.set(w.role, t);
  }
  return out;
}

/** The records a stored record (or submission) rests on, by role, from its record_links: this account's only. */
export async function loadStoredLinkTargets(db: DbOrTx, recordId: string, accountId: string) {
  const rows = await db
    .select({ role: recordLinks.role, target: TARGET_COLUMNS })
    .from(recordLinks)
    .innerJoin(records, eq(records.id, recordLinks.targetId))
    .where(and(eq(recordLinks.recordId, recordId), eq(records.accountId, accountId)));
  return new Map<string, LinkTarget>(rows.map((r) => [r.role, r.target]));
}
