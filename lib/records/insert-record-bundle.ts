import { sql } from "drizzle-orm";
import { getHandle, rowsOf, type DbOrTx } from "@/lib/db/client";
import { storeKeyDone } from "@/lib/idempotency/key-store";
import type { Answer, KeyClaim } from "@/lib/idempotency/types";
import { appendLeavesCte } from "@/lib/tlog/store";
import type { entryEvent, RecordEntry } from "./record-entry";
import type { RecordRow } from "@/lib/public/record/serialize-record";

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
 * The rows travel as one JSON parameter per table (jsonb_to_recordset), not as bind
 * parameters per column: the statement's text is the same for any number of rows, and a
 * 250-row batch is five parameters to build and bind instead of some 11,000 (drizzle's
 * per-parameter SQL building and the driver's per-parameter Bind were a third of the time of
 * a batch's write).
 */
export async function insertRecordBundles(db: DbOrTx, bundles: readonly RecordBundle[], key?: BundleKey): Promise<number> {
  if (bundles.length === 0) return 0;
  const k = key;
  const idem = k ? sql`idem as ${storeKeyDone(db, k, k, bundles[0]!.row.createdAt)}, ` : sql``;
  const recordRows = bundles.map(({ row: r }) => ({
    id: r.id, account_id: r.accountId, environment: r.environment, claim_type: r.claimType, subject: r.subject, claim: r.claim,
    evidence_level: r.evidenceLevel, visibility: r.visibility, evidence_public: r.evidencePublic ?? null,
    evidence_private: r.evidencePrivate ?? null, status: r.status, review_reason: r.reviewReason, issued_at: t(r.issuedAt),
    valid_from: t(r.validFrom), expires_at: t(r.expiresAt), recheck_at: t(r.recheckAt), status_changed_at: t(r.statusChangedAt),
    superseded_by: r.supersededBy, requested_expires_at: t(r.requestedExpiresAt), signing_key_id: r.signingKeyId,
    payload_sha256: r.payloadSha256, signature: r.signature, signed_payload: r.signedPayload ?? null, created_at: t(r.createdAt),
  }));
  const historyRows = bundles.map(({ history: h }) => ({ record_id: h.recordId, status: h.status, at: t(h.at), reason: h.reason, by: h.by }));
  const links = bundles.flatMap((b) => b.links ?? []).map((l) => ({ record_id: l.recordId, role: l.role, target_id: l.targetId }));
  const values = bundles.flatMap((b) => b.values).map((v) => ({ record_id: v.recordId, kind: v.kind, value: v.value, field: v.field }));
  // Issued live records enter the transparency log in this same statement.
  const logged = bundles.map((b) => b.leaf).filter((l) => l !== null);
  const eventRows = bundles.map(({ row, event: e }) => ({
    record_id: row.id, id: e.id, account_id: e.accountId, environment: e.environment, type: e.type, payload: e.payload, created_at: t(e.createdAt),
  }));
  const statement = sql`
    with ${idem}rec as (
      insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public,
                           evidence_private, status, review_reason, issued_at, valid_from, expires_at, recheck_at, status_changed_at,
                           superseded_by, requested_expires_at, signing_key_id, payload_sha256, signature, signed_payload, created_at)
      select v.id, v.account_id, v.environment, v.claim_type, v.subject, v.claim, v.evidence_level, v.visibility, v.evidence_public,
             v.evidence_private, v.status, v.review_reason, v.issued_at, v.valid_from, v.expires_at, v.recheck_at, v.status_changed_at,
             v.superseded_by, v.requested_expires_at, v.signing_key_id, v.payload_sha256, v.signature, v.signed_payload, v.created_at
      from jsonb_to_recordset(${JSON.stringify(recordRows)}::jsonb) as v(
        id text, account_id text, environment text, claim_type text, subject text, claim text, evidence_level text, visibility text,
        evidence_public jsonb, evidence_private jsonb, status text, review_reason text, issued_at timestamptz, valid_from timestamptz,
        expires_at timestamptz, recheck_at timestamptz, status_changed_at timestamptz, superseded_by text, requested_expires_at timestamptz,
        signing_key_id text, payload_sha256 text, signature text, signed_payload jsonb, created_at timestamptz)
      ${k ? sql`where exists (select 1 from idem)` : sql``}
      returning id
    ), hist as (
      insert into record_history (record_id, status, at, reason, by)
      select h.record_id, h.status, h.at, h.reason, h.by
      from jsonb_to_recordset(${JSON.stringify(historyRows)}::jsonb) as h(record_id text, status text, at timestamptz, reason text, by text)
      where h.record_id in (select id from rec)
      returning 1
    ), ${links.length ? sql`lnk as (
      insert into record_links (record_id, role, target_id)
      select l.record_id, l.role, l.target_id
      from jsonb_to_recordset(${JSON.stringify(links)}::jsonb) as l(record_id text, role text, target_id text)
      where l.record_id in (select id from rec)
      returning 1
    ), ` : sql``}${values.length ? sql`val as (
      insert into record_values (record_id, kind, value, field)
      select v.record_id, v.kind, v.value, v.field
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(record_id text, kind text, value text, field text)
      where v.record_id in (select id from rec)
      returning 1
    ), ` : sql``}${logged.length ? sql`${appendLeavesCte(logged, sql`select 1 from rec`)}, ` : sql``}ev as (
      insert into events (id, account_id, environment, type, payload, created_at, record_id)
      select e.id, e.account_id, e.environment, e.type, e.payload, e.created_at, e.record_id
      from jsonb_to_recordset(${JSON.stringify(eventRows)}::jsonb)
        as e(record_id text, id text, account_id text, environment text, type text, payload text, created_at timestamptz)
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

