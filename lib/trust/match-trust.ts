import { eq, inArray } from "drizzle-orm";
import { recordLinks, records } from "@/drizzle/schema";
import { getAccountProfiles, NO_PROFILE, type AccountProfile } from "@/lib/accounts/account-profile";
import { claimModuleFor } from "@/lib/claims/registry";
import type { DbOrTx } from "@/lib/db/client";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import { decideTrust, type Trust } from "./decide";

/** A record a lookup or /check found: live, public and active now (lib/public/lookup/find-matches.ts). */
export type FoundRecord = { id: string; accountId: string; evidenceLevel: string; claimType: string };
export type JudgedRecord<T extends FoundRecord> = T & { account: AccountProfile; trust: Trust };

/**
 * The trust decision for records found by value: who speaks for each (profiles, cached per
 * process) and whether every part it rests on still stands (one query over their links).
 * The same decideTrust the public view uses, so a match says what its certificate says.
 */
export async function judgeFound<T extends FoundRecord>(db: DbOrTx, rows: readonly T[], now: Date): Promise<JudgedRecord<T>[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  // Types with a part resting on the account (a listing's operator) need their public evidence.
  const needEvidence = rows.filter((r) => claimModuleFor(r.claimType).policy?.accountPartLapsed).map((r) => r.id);
  const [profiles, parts, evidence] = await Promise.all([
    getAccountProfiles(db, rows.map((r) => r.accountId)),
    // Only types that declare links can rest on other records: a lookup of domains or wallets asks nothing more.
    !rows.some((r) => claimModuleFor(r.claimType).request.links) ? Promise.resolve([])
      : db.select({ recordId: recordLinks.recordId, status: records.status, expiresAt: records.expiresAt, statusChangedAt: records.statusChangedAt })
        .from(recordLinks)
        .innerJoin(records, eq(records.id, recordLinks.targetId))
        .where(inArray(recordLinks.recordId, ids)),
    needEvidence.length === 0 ? Promise.resolve([])
      : db.select({ id: records.id, evidence: records.evidencePublic }).from(records).where(inArray(records.id, needEvidence)),
  ]);
  const evidenceOf = new Map(evidence.map((e) => [e.id, e.evidence ?? {}]));
  const lapsed = new Set(parts.filter((p) => effectiveStatus(p, now.getTime()).status !== "active").map((p) => p.recordId));
  return rows.map((r) => {
    const account = profiles.get(r.accountId) ?? NO_PROFILE;
    const ev = evidenceOf.get(r.id);
    const accountPart = ev ? (claimModuleFor(r.claimType).policy?.accountPartLapsed?.(ev, account) ?? null) : null;
    const trust = decideTrust({ environment: "live", status: "active", evidenceLevel: r.evidenceLevel, partsStand: !lapsed.has(r.id) && accountPart === null, account });
    return { ...r, account, trust };
  });
}
