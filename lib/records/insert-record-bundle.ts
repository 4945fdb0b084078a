import { sql } from "drizzle-orm";
import { getHandle, rowsOf, type DbOrTx } from "@/lib/db/client";
import { storeKeyDone } from "@/lib/idempotency/key-store";
import type { Answer, KeyClaim } from "@/lib/idempotency/types";
import { appendLeavesCte } from "@/lib/tlog/store";
import type { entryEvent, RecordEntry } from "./record-entry";
import type { RecordRow } from "./serialize-record";

const j = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
const t = (d: Date | null) => (d ? d.toISOString() : null);

/** A new record as written: the row, the records it rests on, its entry (record-entry.ts) and its outbox event. */
export type RecordBundle = RecordEntry & {
  row: RecordRow;
  links?: readonly { recordId: string; role: string; targetId: string }[];
  event: ReturnType<typeof entryEvent>;
};

/**
 * The idempotency key of a single create, stored as done with the answer it gets.
 * Mode "claim": the key must be new. "complete": this request claimed it earlier (state running).
 */
export type BundleKey = KeyClaim & Answer;

/**
 * One statement, hence atomic without an explicit transaction: insert the records, their
 * first history entries, their links (record_links), their lookup values (record_values),
 * their outbox events and, for issued live records, their transparency-log entries. With `key`, the idempotency key is stored as
 * done with its answer first, and the rest is written only if that succeeded; 0 then means the
 * key was taken (nothing written). For a claim check without I/O this is the whole write of a
 * create: one round trip. Without `key` (the rows of a batch, whose one key is completed in
 * the same transaction) the records are always written. Returns how many records were written.
 *
 * 36 bind parameters per record, 3 per link and 4 per lookup value: PostgreSQL's limit of
 * 65,535 allows some 1,500 records per call.
 */
export async function insertRecordBundles(db: DbOrTx, bundles: readonly RecordBundle[], key?: BundleKey): Promise<number> {
  if (bundles.length === 0) return 0;
  const k = key;
  const idem = k ? sql`idem as ${storeKeyDone(db, k, k, bundles[0]!.row.createdAt)}, ` : sql``;
  const recordRows = sql.join(bundles.map(({ row: r }) => sql`(
      ${r.id}, ${r.accountId}, ${r.environment}, ${r.claimType}, ${r.subject}, ${r.claim}, ${r.evidenceLevel}, ${r.visibility},
      ${j(r.evidencePublic)}::jsonb, ${j(r.evidencePrivate)}::jsonb, ${r.status}, ${r.reviewReason}, ${t(r.issuedAt)}::timestamptz,
      ${t(r.validFrom)}::timestamptz, ${t(r.expiresAt)}::timestamptz, ${t(r.recheckAt)}::timestamptz, ${t(r.statusChangedAt)}::timestamptz,
      ${r.supersededBy}, ${t(r.requestedExpiresAt)}::timestamptz, ${r.signingKeyId}, ${r.payloadSha256}, ${r.signature},
      ${j(r.signedPayload)}::jsonb, ${t(r.createdAt)}::timestamptz)`), sql`,`);
  const historyRows = sql.join(bundles.map(({ history: h }) => sql`(${h.recordId}, ${h.status}, ${t(h.at)}::timestamptz, ${h.reason}, ${h.by})`), sql`,`);
  const links = bundles.flatMap((b) => b.links ?? []);
  const linkRows = sql.join(links.map((l) => sql`(${l.recordId}, ${l.role}, ${l.targetId})`), sql`,`);
  const values = bundles.flatMap((b) => b.values);
  const valueRows = sql.join(values.map((v) => sql`(${v.recordId}, ${v.kind}, ${v.value}, ${v.field})`), sql`,`);
  // Issued live records enter the transparency log in this same statement.
  const logged = bundles.map((b) => b.leaf).filter((l) => l !== null);
  const eventRows = sql.join(bundles.map(({ row, event: e }) =>
    sql`(${row.id}, ${e.id}, ${e.accountId}, ${e.environment}, ${e.type}, ${e.payload}, ${t(e.createdAt)}::timestamptz)`), sql`,`);
  const statement = sql`
    with ${idem}rec as (
      insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public,
                           evidence_private, status, review_reason, issued_at, valid_from, expires_at, recheck_at, status_changed_at,
                           superseded_by, requested_expires_at, signing_key_id, payload_sha256, signature, signed_payload, created_at)
      select * from (values ${recordRows}) as v
      ${k ? sql`where exists (select 1 from idem)` : sql``}
      returning id
    ), hist as (
      insert into record_history (record_id, status, at, reason, by)
      select h.* from (values ${historyRows}) as h(record_id, status, at, reason, by)
      where h.record_id in (select id from rec)
      returning 1
    ), ${links.length ? sql`lnk as (
      insert into record_links (record_id, role, target_id)
      select l.* from (values ${linkRows}) as l(record_id, role, target_id)
      where l.record_id in (select id from rec)
      returning 1
    ), ` : sql``}${values.length ? sql`val as (
      insert into record_values (record_id, kind, value, field)
      select v.* from (values ${valueRows}) as v(record_id, kind, value, field)
      where v.record_id in (select id from rec)
      returning 1
    ), ` : sql``}${logged.length ? sql`${appendLeavesCte(logged, sql`select 1 from rec`)}, ` : sql``}ev as (
      insert into events (id, account_id, environment, type, payload, created_at)
      select e.id, e.account_id, e.environment, e.type, e.payload, e.created_at
      from (values ${eventRows}) as e(record_id, id, account_id, environment, type, payload, created_at)
      where e.record_id in (select id from rec)
      returning 1
    )
    select (select count(*) from rec)::int as inserted`;
  // Outside a transaction the statement goes to the driver directly (see Handle.rawQuery).
  const rows = db === (await getHandle()).db
    ? await (await getHandle()).rawQuery(statement)
    : rowsOf(await db.execute(statement));
  return Number(rows[0]?.inserted ?? 0);
}

/** One record (a single create): true when written, false when `key` was taken. */
export async function insertRecordBundle(db: DbOrTx, b: RecordBundle & { key?: BundleKey }): Promise<boolean> {
  return (await insertRecordBundles(db, [b], b.key)) === 1;
}

