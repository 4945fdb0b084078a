import { and, eq, gte, lt, max, ne, or, lte } from "drizzle-orm";
import { records, vcStatusEntries, type RecordStatus } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { keyring, sandboxSigningKey, type KeyEnvironment } from "@/lib/signing/keys";
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

/**
 * Each issuer has its own lists, signed by it (a verifier — Digital Bazaar's by default — refuses
 * a list whose issuer is not the credential's): live records' at /api/v1/status-lists/…, signed
 * by did:web:<host>; sandbox records' at /sandbox/status-lists/…, signed by did:web:<host>:sandbox.
 * The indexes are one sequence for both; a list sets only its own environment's records' bits.
 */
export const statusListUrl = (purpose: StatusPurpose, list: number, environment: KeyEnvironment = "live", base = getEnv().publicBaseUrl) =>
  environment === "sandbox" ? `${base}/sandbox/status-lists/${purpose}/${list}` : `${base}/api/v1/status-lists/${purpose}/${list}`;

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

/**
 * The positions set in `environment`'s list `list` for `purpose`, now: one range scan of the
 * list's entries, only records not active — of that environment. One exception: in the live
 * revocation lists every sandbox record's bit is set. Before sandbox credentials had an issuer
 * of their own they were signed by the live issuer and pointed at the live lists; those
 * credentials are thereby revoked for any verifier checking their status.
 */
async function setPositions(db: Db, environment: KeyEnvironment, purpose: StatusPurpose, list: number, now: number): Promise<number[]> {
  const lo = list * LIST_BITS;
  const notActive = or(ne(records.status, "active"), lte(records.expiresAt, new Date(now)));
  const rows = await db
    .select({
      i: vcStatusEntries.statusIndex, environment: records.environment,
      status: records.status, expiresAt: records.expiresAt, statusChangedAt: records.statusChangedAt,
    })
    .from(vcStatusEntries)
    .innerJoin(records, eq(records.id, vcStatusEntries.recordId))
    .where(and(
      gte(vcStatusEntries.statusIndex, lo), lt(vcStatusEntries.statusIndex, lo + LIST_BITS),
      environment === "sandbox" ? and(eq(records.environment, "sandbox"), notActive)
        : purpose === "revocation" ? or(eq(records.environment, "sandbox"), notActive)
        : and(eq(records.environment, "live"), notActive),
    ));
  return rows
    .filter((r) => r.environment !== environment ? environment === "live" && purpose === "revocation" : bitSet[purpose](effectiveStatus(r, now).status))
    .map((r) => r.i - lo);
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
 * `environment`'s BitstringStatusListCredential for `purpose` and `list`, built from the records'
 * current statuses and signed (eddsa-jcs-2022) by that environment's issuer with its active key
 * (sandbox: the sandbox key); null when the list does not exist.
 */
export async function getStatusListCredential(
  db: Db, purpose: StatusPurpose, list: number, environment: KeyEnvironment = "live",
): Promise<string | null> {
  const now = Date.now();
  const key = `${environment}/${purpose}/${list}`;
  const epoch = statusEpoch();
  const hit = cache.get(key);
  if (hit && hit.epoch === epoch && hit.untilMs > now) return hit.body;
  if (!(await listExists(db, list))) return null;
  const id = statusListUrl(purpose, list, environment);
  const credential = {
    "@context": [VC_V2_CONTEXT],
    id,
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: issuerDid(environment),
    validFrom: xsdDateTime(new Date(now)),
    credentialSubject: {
      id: `${id}#list`,
      type: "BitstringStatusList",
      statusPurpose: purpose,
      encodedList: encodeList(await setPositions(db, environment, purpose, list, now)),
      ttl: getEnv().STATUS_CACHE_SECONDS * 1000,
    },
  };
  const signer = environment === "sandbox" ? sandboxSigningKey() : keyring().active;
  const body = JSON.stringify(signEddsaJcs2022(credential, new Date(now), signer));
  if (cache.size > 1000) cache.clear();
  cache.set(key, { body, epoch, untilMs: now + REUSE_MS });
  return body;
}
