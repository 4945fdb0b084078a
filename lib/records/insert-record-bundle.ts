import { sql } from "drizzle-orm";
import { getHandle, type DbOrTx } from "@/lib/db/client";
import type { IdempotencyScope } from "@/lib/idempotency/idempotency";
import type { buildEvent } from "@/lib/outbox/write-event";
import type { HistoryRow, RecordRow } from "./serialize-record";

const j = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
const t = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * One statement, hence atomic without an explicit transaction: store the idempotency key as
 * done with its answer, and only if that succeeded insert the record, its first history
 * entry and its outbox event. Returns false when the key was taken (nothing written). For
 * a claim check without I/O this is the whole write of a create: one round trip.
 */
export async function insertRecordBundle(
  db: DbOrTx,
  b: {
    scope: IdempotencyScope; requestHash: string; status: number; bodyJson: string;
    row: RecordRow; history: Omit<HistoryRow, "seq">; event: ReturnType<typeof buildEvent>;
    /** "claim": the key must be new. "complete": this request claimed it earlier (state running). */
    mode: "claim" | "complete";
  },
): Promise<boolean> {
  const { scope, row: r, history: h, event: e } = b;
  const statement = sql`
    with idem as (
      insert into idempotency_keys (account_id, environment, endpoint, key, request_hash, state, response_status, response_body, locked_at, created_at)
      values (${scope.accountId}, ${scope.environment}, ${scope.endpoint}, ${scope.key}, ${b.requestHash}, 'done', ${b.status},
              ${b.bodyJson}, ${t(r.createdAt)}::timestamptz, ${t(r.createdAt)}::timestamptz)
      on conflict (account_id, environment, endpoint, key) do ${b.mode === "claim" ? sql`nothing` : sql`update
        set state = 'done', response_status = excluded.response_status, response_body = excluded.response_body
        where idempotency_keys.state = 'running' and idempotency_keys.request_hash = excluded.request_hash`}
      returning 1
    ), rec as (
      insert into records (id, account_id, environment, claim_type, subject, claim, evidence_level, visibility, evidence_public,
                           evidence_private, status, review_reason, issued_at, valid_from, expires_at, recheck_at, status_changed_at,
                           superseded_by, requested_expires_at, signing_key_id, payload_sha256, signature, signed_payload, created_at)
      select ${r.id}, ${r.accountId}, ${r.environment}, ${r.claimType}, ${r.subject}, ${r.claim}, ${r.evidenceLevel}, ${r.visibility},
             ${j(r.evidencePublic)}::jsonb, ${j(r.evidencePrivate)}::jsonb, ${r.status}, ${r.reviewReason}, ${t(r.issuedAt)}::timestamptz,
             ${t(r.validFrom)}::timestamptz, ${t(r.expiresAt)}::timestamptz, ${t(r.recheckAt)}::timestamptz, ${t(r.statusChangedAt)}::timestamptz,
             ${r.supersededBy}, ${t(r.requestedExpiresAt)}::timestamptz, ${r.signingKeyId}, ${r.payloadSha256}, ${r.signature},
             ${j(r.signedPayload)}::jsonb, ${t(r.createdAt)}::timestamptz
      where exists (select 1 from idem)
      returning id
    ), hist as (
      insert into record_history (record_id, status, at, reason, by)
      select id, ${h.status}, ${t(h.at)}::timestamptz, ${h.reason}, ${h.by} from rec
      returning 1
    ), ev as (
      insert into events (id, account_id, environment, type, payload, created_at)
      select ${e.id}, ${e.accountId}, ${e.environment}, ${e.type}, ${e.payload}, ${t(e.createdAt)}::timestamptz from rec
      returning 1
    )
    select (select count(*) from rec)::int as inserted`;
  // Outside a transaction the statement goes to the driver directly (see Handle.rawQuery).
  const rows = db === (await getHandle()).db
    ? await (await getHandle()).rawQuery(statement)
    : rowsOf(await db.execute(statement));
  return rows[0]?.inserted === 1;
}

const rowsOf = (r: unknown) => (Array.isArray(r) ? r : (r as { rows: Record<string, unknown>[] }).rows) as Record<string, unknown>[];
