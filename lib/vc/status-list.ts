import { and, eq, gte, lt, max, ne, or, lte } from "drizzle-orm";
import { records, vcStatusEntries, type RecordStatus } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { effectiveStatus } from "@/lib/records/effective-status";
import { statusEpoch } from "@/lib/records/status-cache";
import { encodeList, LIST_BITS } from "./bitstring";
import { VC_V2_CONTEXT } from "./context";
import { issuerDid } from "./did";
import { signEddsaJcs2022, xsdDateTime } from "./eddsa-jcs-2022";

export const STATUS_PURPOSES = ["revocation", "suspension"] as const;
export type StatusPurpose = (typeof STATUS_PURPOSES)[number];

/**
 * Which bit a status sets. `revocation`: the record no longer stands and never will again —
 * revoked, superseded, or expired (early with the `expire` operation, or at `expires_at`,
 * which `validUntil` says as well). `suspension`: suspended now; cleared on reinstate.
 */
export const bitSet: Record<StatusPurpose, (s: RecordStatus) => boolean> = {
  revocation: (s) => s === "revoked" || s === "superseded" || s === "expired",
  suspension: (s) => s === "suspended",
};

export const statusListUrl = (purpose: StatusPurpose, list: number, base = getEnv().publicBaseUrl) =>
  `${base}/api/v1/status-lists/${purpose}/${list}`;

const storedIndex = async (db: DbOrTx, recordId: string) =>
  (await db.select({ statusIndex: vcStatusEntries.statusIndex }).from(vcStatusEntries).where(eq(vcStatusEntries.recordId, recordId)))[0]?.statusIndex;

/**
 * A record's place in the status lists: given on first use (the table's identity), then fixed.
 * Read first, so only a record's first request writes; concurrent first requests agree
 * (ON CONFLICT DO NOTHING, then read the winner's).
 */
export async function statusIndexOf(db: DbOrTx, recordId: string): Promise<number> {
  const known = await storedIndex(db, recordId);
  if (known !== undefined) return known;
  const [got] = await db.insert(vcStatusEntries).values({ recordId }).onConflictDoNothing()
    .returning({ statusIndex: vcStatusEntries.statusIndex });
  const index = got?.statusIndex ?? (await storedIndex(db, recordId));
  if (index === undefined) throw new Error(`no status index for ${recordId}`);
  return index;
}

/** The positions set in list `list` for `purpose`, now: one range scan of the list's entries, only records not active. */
async function setPositions(db: Db, purpose: StatusPurpose, list: number, now: number): Promise<number[]> {
  const lo = list * LIST_BITS;
  const rows = await db
    .select({ i: vcStatusEntries.statusIndex, status: records.status, expiresAt: records.expiresAt, statusChangedAt: records.statusChangedAt })
    .from(vcStatusEntries)
    .innerJoin(records, eq(records.id, vcStatusEntries.recordId))
    .where(and(
      gte(vcStatusEntries.statusIndex, lo), lt(vcStatusEntries.statusIndex, lo + LIST_BITS),
      or(ne(records.status, "active"), lte(records.expiresAt, new Date(now))),
    ));
  return rows.filter((r) => bitSet[purpose](effectiveStatus(r, now).status)).map((r) => r.i - lo);
}

/** Lists exist from 0 up to the one holding the highest index given so far. */
async function listExists(db: Db, list: number): Promise<boolean> {
  if (list === 0) return true;
  const [row] = await db.select({ top: max(vcStatusEntries.statusIndex) }).from(vcStatusEntries);
  return row?.top != null && list <= Math.floor(row.top / LIST_BITS);
}

type Cached = { body: string; epoch: number; untilMs: number };
const g = globalThis as unknown as { __prsStatusLists?: Map<string, Cached> };
const cache = (g.__prsStatusLists ??= new Map());
/** Built lists are reused this long at most, and never after any record's status changed (status-cache.ts). */
const REUSE_MS = 5_000;

/**
 * The BitstringStatusListCredential for `purpose` and `list`, built from the records' current
 * statuses and signed (eddsa-jcs-2022) with the active key; null when the list does not exist.
 */
export async function getStatusListCredential(db: Db, purpose: StatusPurpose, list: number): Promise<string | null> {
  const now = Date.now();
  const key = `${purpose}/${list}`;
  const epoch = statusEpoch();
  const hit = cache.get(key);
  if (hit && hit.epoch === epoch && hit.untilMs > now) return hit.body;
  if (!(await listExists(db, list))) return null;
  const id = statusListUrl(purpose, list);
  const credential = {
    "@context": [VC_V2_CONTEXT],
    id,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: issuerDid(),
    validFrom: xsdDateTime(new Date(now)),
    credentialSubject: {
      id: `${id}#list`,
      type: "BitstringStatusList",
      statusPurpose: purpose,
      encodedList: encodeList(await setPositions(db, purpose, list, now)),
      ttl: getEnv().STATUS_CACHE_SECONDS * 1000,
    },
  };
  const body = JSON.stringify(signEddsaJcs2022(credential, new Date(now)));
  if (cache.size > 1000) cache.clear();
  cache.set(key, { body, epoch, untilMs: now + REUSE_MS });
  return body;
}
