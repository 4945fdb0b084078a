import { records, recordHistory } from "@/drizzle/schema";
import { meterLiveUsage, requireActivePlan } from "@/lib/accounts/plans";
import type { AuthContext } from "@/lib/accounts/types";
import { claimModuleFor } from "@/lib/claims/registry";
import type { CheckOutcome } from "@/lib/claims/types";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { beginIdempotent, completeIdempotent, releaseIdempotent, type IdempotencyScope } from "@/lib/idempotency/idempotency";
import { newRecordId } from "@/lib/ids";
import { writeEvent } from "@/lib/outbox/write-event";
import { canonicalJson, sha256Hex, signJson } from "@/lib/signing/canonical";
import { recordCreateSchema, type RecordCreateInput } from "./schemas";
import { serializeRecord, type RecordRow } from "./serialize-record";
import { buildSignedPayload } from "./signed-payload";

const EVIDENCE_LIMIT = 32 * 1024;
const MAX_VALIDITY_MS = 5 * 366 * 86_400_000;

export type CreateResult = { status: 200 | 201 | 202; body: Record<string, unknown>; replayed: boolean };

/** Shape and type-specific checks that need no I/O; the first problem is thrown as a 422. */
export function validateRecordInput(raw: unknown, prefix = ""): RecordCreateInput {
  const input = parseOrThrow(recordCreateSchema, raw, prefix);
  const p = (f: string) => (prefix ? `${prefix}.${f}` : f);
  if (input.evidence && Buffer.byteLength(canonicalJson(input.evidence)) > EVIDENCE_LIMIT) {
    throw new ApiError("too_large", "'evidence' exceeds 32 KiB.", p("evidence"));
  }
  if (input.expires_at !== undefined) {
    const at = Date.parse(input.expires_at);
    const min = getEnv().MIN_VALIDITY_SECONDS;
    if (at <= Date.now() + min * 1000 || at > Date.now() + MAX_VALIDITY_MS) {
      throw new ApiError("invalid_value", `'expires_at' must lie between ${min} seconds and five years from now.`, p("expires_at"));
    }
  }
  const problem = claimModuleFor(input.claim_type).validate(input);
  if (problem) throw new ApiError(problem.code, problem.message, problem.param ? p(problem.param) : undefined);
  return input;
}

/**
 * The one pipeline every claim type goes through:
 * validate → idempotency → claim check → sign → store (+ outbox event, one transaction) → respond.
 */
export async function createRecord(db: Db, auth: AuthContext, raw: Record<string, unknown>, idempotencyKey: string): Promise<CreateResult> {
  const scope: IdempotencyScope = { accountId: auth.accountId, environment: auth.environment, endpoint: "records.create", key: idempotencyKey };
  // The key is looked up before validation: part of validation depends on the clock (expires_at,
  // checked_at), and a retry of a request that succeeded must replay, not fail.
  const begun = await beginIdempotent(db, scope, sha256Hex(canonicalJson(raw)));
  if (begun.kind === "replay") return { status: 200, body: begun.body, replayed: true };
  try {
    const input = validateRecordInput(raw);
    requireActivePlan(auth);
    const now = new Date();
    const outcome = await claimModuleFor(input.claim_type).check(input, { auth, now, db });
    if (outcome.kind === "fail") throw ApiError.fromField(outcome.error);
    return await db.transaction(async (tx) => {
      if (outcome.kind === "issue") await meterLiveUsage(tx, auth, "live_records", now);
      const row = buildRow(auth, input, outcome, now);
      await tx.insert(records).values(row);
      const refused = outcome.commit ? await outcome.commit(tx, row.id) : null;
      if (refused) throw ApiError.fromField(refused);
      const entry = {
        recordId: row.id, status: row.status, at: now, by: `owner:${auth.keyId}`,
        reason: outcome.kind === "issue" ? "Issued." : "Submitted for review.",
      };
      await tx.insert(recordHistory).values(entry);
      const body = serializeRecord(row, [{ seq: 0, ...entry }], now.getTime());
      await writeEvent(tx, {
        accountId: auth.accountId, environment: auth.environment, at: now,
        type: outcome.kind === "issue" ? "record.issued" : "record.pending_review", data: { record: body },
      });
      const status = outcome.kind === "issue" ? 201 : 202;
      await completeIdempotent(tx, scope, status, body);
      return { status, body, replayed: false } as CreateResult;
    });
  } catch (err) {
    await releaseIdempotent(db, scope).catch((e) => console.error("idempotency release failed", e));
    throw err;
  }
}

function buildRow(auth: AuthContext, input: RecordCreateInput, outcome: Exclude<CheckOutcome, { kind: "fail" }>, now: Date): RecordRow {
  const id = newRecordId();
  const base = {
    id, accountId: auth.accountId, environment: auth.environment, claimType: input.claim_type,
    subject: input.subject, claim: input.claim, evidenceLevel: outcome.evidenceLevel,
    visibility: input.visibility ?? "private", evidencePublic: outcome.publicEvidence,
    evidencePrivate: outcome.privateEvidence ?? null, statusChangedAt: now, createdAt: now,
    requestedExpiresAt: input.expires_at ? new Date(input.expires_at) : null,
  } as const;
  if (outcome.kind === "review") {
    return { ...base, status: "pending_review" as const, reviewReason: outcome.reason, issuedAt: null, validFrom: null,
      expiresAt: null, recheckAt: null, signingKeyId: null, payloadSha256: null, signature: null, signedPayload: null, supersededBy: null };
  }
  const expiresAt = input.expires_at
    ? new Date(input.expires_at)
    : new Date(now.getTime() + getEnv().DEFAULT_RECORD_VALIDITY_DAYS * 86_400_000);
  const signedPayload = buildSignedPayload({ ...base, evidence: outcome.publicEvidence, issuedAt: now, validFrom: now, expiresAt });
  const sig = signJson(signedPayload);
  return { ...base, status: "active" as const, reviewReason: null, issuedAt: now, validFrom: now, expiresAt,
    recheckAt: outcome.recheckAt ?? null, signingKeyId: sig.kid, payloadSha256: sig.payloadSha256,
    signature: sig.signature, signedPayload, supersededBy: null };
}
