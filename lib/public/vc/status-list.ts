import { gzipSync } from "node:zlib";
import { and, asc, eq, gt, gte, inArray, isNotNull, lt, max, ne, or } from "drizzle-orm";
import { records, statusListChanges, vcStatusEntries, type RecordStatus } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { keyring, sandboxSigningKey, type KeyEnvironment } from "@/lib/signing/keys";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import { LIST_BITS } from "./bitstring";
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

type EntryRow = { i: number; environment: "sandbox" | "live"; status: RecordStatus; expiresAt: Date | null; statusChangedAt: Date };

/**
 * Whether `row`'s bit is set in `environment`'s `purpose` list at `now`: its own environment's
 * records by their effective status; one exception: in the live revocation lists every
 * sandbox record's bit is set. Before sandbox credentials had an issuer of their own they
 * were signed by the live issuer and pointed at the live lists; those credentials are
 * thereby revoked for any verifier checking their status.
 */
function bitOf(row: EntryRow, environment: KeyEnvironment, purpose: StatusPurpose, now: number): boolean {
  if (row.environment !== environment) return environment === "live" && purpose === "revocation";
  return bitSet[purpose](effectiveStatus(row, now).status);
}

/** A bit that may still move with time alone: its record reaches `expires_at` later. */
const timeDependent = (row: EntryRow, environment: KeyEnvironment, now: number) =>
  row.environment === environment && (row.status === "active" || row.status === "suspended") && !!row.expiresAt && row.expiresAt.getTime() > now;

const entryColumns = {
  i: vcStatusEntries.statusIndex, environment: records.environment,
  status: records.status, expiresAt: records.expiresAt, statusChangedAt: records.statusChangedAt,
};

/** Lists exist from 0 up to the one holding the highest index given so far. */
async function listExists(db: Db, list: number): Promise<boolean> {
  if (list === 0) return true;
  const [row] = await db.select({ top: max(vcStatusEntries.statusIndex) }).from(vcStatusEntries);
  return row?.top != null && list <= Math.floor(row.top / LIST_BITS);
}

/**
 * One environment's list `list`, both purposes, as this process holds it: the bitstrings, the
 * last change (`status_list_changes.seq`) applied, and the records whose bits move with time
 * alone (expiring later), with the earliest such moment.
 */
type ListState = {
  seq: number;
  bits: Record<StatusPurpose, Uint8Array>;
  /** Moves with every bit that changes: a signed body is reused only while it stands still. */
  version: number;
  timed: Map<number, EntryRow>;
  nextDueMs: number;
  checkedAtMs: number;
  bodies: Partial<Record<StatusPurpose, { body: string; version: number; untilMs: number }>>;
};

const g = globalThis as unknown as { __prsStatusLists?: Map<string, ListState>; __prsStatusListLocks?: Map<string, Promise<unknown>> };
const lists = (g.__prsStatusLists ??= new Map());
const locks = (g.__prsStatusListLocks ??= new Map());
/** A signed body is reused this long at most (its `validFrom` stays recent), and never after a bit changed. */
const REUSE_MS = 5_000;
/** A list not looked at for this long is built afresh: the change notes it would need may have been purged (PURGE_CHANGES_MS). */
const IDLE_REBUILD_MS = 6 * 3600_000;
/** Change notes older than this are deleted by the sweep. */
const PURGE_CHANGES_MS = 24 * 3600_000;
/** More changes than this since a list was last looked at: building it afresh is cheaper. */
const MAX_DELTA = 5_000;

function setBit(state: ListState, environment: KeyEnvironment, row: EntryRow, now: number, lo: number) {
  const off = row.i - lo;
  const byte = off >> 3;
  const mask = 0x80 >> (off & 7);
  for (const purpose of STATUS_PURPOSES) {
    const bytes = state.bits[purpose];
    const was = (bytes[byte]! & mask) !== 0;
    const is = bitOf(row, environment, purpose, now);
    if (was !== is) {
      bytes[byte] = is ? bytes[byte]! | mask : bytes[byte]! & ~mask;
      state.version += 1;
    }
  }
  if (timeDependent(row, environment, now)) {
    state.timed.set(row.i, row);
    state.nextDueMs = Math.min(state.nextDueMs, row.expiresAt!.getTime());
  } else {
    state.timed.delete(row.i);
  }
}

/**
 * Build `environment`'s list `list` from the records: one range scan of the list's entries
 * (only those whose bits are or may become set), done once per process — afterwards the
 * list follows the change notes (`updateList`).
 */
async function buildList(db: Db, environment: KeyEnvironment, list: number, now: number): Promise<ListState> {
  const lo = list * LIST_BITS;
  // Read before the scan: a change committed meanwhile is applied again by the next update (idempotent).
  const [top] = await db.select({ seq: max(statusListChanges.seq) }).from(statusListChanges).where(eq(statusListChanges.list, list));
  const rows = await db.select(entryColumns).from(vcStatusEntries)
    .innerJoin(records, eq(records.id, vcStatusEntries.recordId))
    .where(and(
      gte(vcStatusEntries.statusIndex, lo), lt(vcStatusEntries.statusIndex, lo + LIST_BITS),
      or(ne(records.environment, environment), ne(records.status, "active"), isNotNull(records.expiresAt)),
    ));
  const state: ListState = {
    seq: Number(top?.seq ?? 0),
    bits: { revocation: new Uint8Array(LIST_BITS / 8), suspension: new Uint8Array(LIST_BITS / 8) },
    version: 0, timed: new Map(), nextDueMs: Infinity, checkedAtMs: now, bodies: {},
  };
  for (const row of rows) setBit(state, environment, row, now, lo);
  return state;
}

/**
 * Bring a held list up to date: the change notes after the last one applied (one index range,
 * usually empty), each changed record re-read by its index; then the records whose expiry has
 * come. Null: too far behind, build afresh.
 */
async function updateList(db: Db, state: ListState, environment: KeyEnvironment, list: number, now: number): Promise<ListState | null> {
  if (now - state.checkedAtMs > IDLE_REBUILD_MS) return null;
  const lo = list * LIST_BITS;
  const changes = await db.select({ seq: statusListChanges.seq, i: statusListChanges.statusIndex }).from(statusListChanges)
    .where(and(eq(statusListChanges.list, list), gt(statusListChanges.seq, state.seq)))
    .orderBy(asc(statusListChanges.seq)).limit(MAX_DELTA + 1);
  if (changes.length > MAX_DELTA) return null;
  if (changes.length) {
    const indexes = [...new Set(changes.map((c) => c.i))];
    const rows = await db.select(entryColumns).from(vcStatusEntries)
      .innerJoin(records, eq(records.id, vcStatusEntries.recordId))
      .where(inArray(vcStatusEntries.statusIndex, indexes));
    for (const row of rows) setBit(state, environment, row, now, lo);
    state.seq = Number(changes.at(-1)!.seq);
  }
  if (state.nextDueMs <= now) {
    let next = Infinity;
    for (const row of [...state.timed.values()]) {
      if (row.expiresAt!.getTime() <= now) setBit(state, environment, row, now, lo);
      else next = Math.min(next, row.expiresAt!.getTime());
    }
    state.nextDueMs = next;
  }
  state.checkedAtMs = now;
  return state;
}

/** One update or build of a list at a time in this process; the others wait for it. */
async function currentList(db: Db, environment: KeyEnvironment, list: number, now: number): Promise<ListState | null> {
  const key = `${environment}/${list}`;
  const before = locks.get(key) ?? Promise.resolve();
  const run = before.catch(() => undefined).then(async () => {
    const held = lists.get(key);
    const updated = held && (await updateList(db, held, environment, list, now));
    if (updated) return updated;
    if (!held && !(await listExists(db, list))) return null;
    const built = await buildList(db, environment, list, now);
    if (lists.size >= 1000) lists.delete(lists.keys().next().value!);
    lists.set(key, built);
    return built;
  });
  locks.set(key, run);
  try {
    return await run;
  } finally {
    if (locks.get(key) === run) locks.delete(key);
  }
}

/** Change notes no held list can still need (a list idle longer than IDLE_REBUILD_MS is built afresh). For the sweep. */
export async function purgeStatusListChanges(db: DbOrTx, now = Date.now()) {
  await db.delete(statusListChanges).where(lt(statusListChanges.createdAt, new Date(now - PURGE_CHANGES_MS)));
}

/** `encodedList` of a held list's bitstring (lib/public/vc/bitstring.ts). */
const encodeBits = (bytes: Uint8Array) => `u${gzipSync(bytes).toString("base64url")}`;

/**
 * `environment`'s BitstringStatusListCredential for `purpose` and `list`, from the records'
 * current statuses, signed (eddsa-jcs-2022) by that environment's issuer with its active key
 * (sandbox: the sandbox key); null when the list does not exist. Built once per process, then
 * updated by the records that changed since (status_list_changes): after a status change the
 * answer costs one indexed read of the change notes and one of the changed records.
 */
export async function getStatusListCredential(
  db: Db, purpose: StatusPurpose, list: number, environment: KeyEnvironment = "live",
): Promise<string | null> {
  const now = Date.now();
  const state = await currentList(db, environment, list, now);
  if (!state) return null;
  const hit = state.bodies[purpose];
  if (hit && hit.version === state.version && hit.untilMs > now) return hit.body;
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
      encodedList: encodeBits(state.bits[purpose]),
      ttl: getEnv().STATUS_CACHE_SECONDS * 1000,
    },
  };
  const signer = environment === "sandbox" ? sandboxSigningKey() : keyring().active;
  const body = JSON.stringify(signEddsaJcs2022(credential, new Date(now), signer));
  state.bodies[purpose] = { body, version: state.version, untilMs: now + REUSE_MS };
  return body;
}
