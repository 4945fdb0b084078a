import { meterLiveUsage, requireActivePlan, requireReviewAllowance } from "@/lib/accounts/plans";
import type { AuthContext } from "@/lib/accounts/types";
import { claimModuleFor } from "@/lib/claims/registry";
import type { CheckOutcome, ClaimModule } from "@/lib/claims/types";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { beginIdempotent, findIdempotent, releaseIdempotent, type IdempotencyScope } from "@/lib/idempotency/idempotency";
import { newRecordId } from "@/lib/ids";
import { buildEvent } from "@/lib/outbox/write-event";
import { canonicalJson, sha256Hex } from "@/lib/signing/canonical";
import { recordCreateSchema, type RecordCreateInput } from "./schemas";
import { serializeRecord, type RecordRow } from "./serialize-record";
import { insertRecordBundle } from "./insert-record-bundle";
import { defaultExpiry, signIssue } from "./signed-payload";

const EVIDENCE_LIMIT = 32 * 1024;
const MAX_VALIDITY_MS = 5 * 366 * 86_400_000;

/** `bodyJson` is the answer as sent: the same text is stored for replays and spliced into the event. */
export type CreateResult = { status: 200 | 201 | 202; bodyJson: string; replayed: boolean };

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
  let mod: ClaimModule;
  try {
    mod = claimModuleFor(input.claim_type);
  } catch (err) {
    if (err instanceof ApiError && err.param) throw new ApiError(err.code, err.message, p(err.param));
    throw err;
  }
  const problem = mod.validate(input);
  if (problem) throw new ApiError(problem.code, problem.message, problem.param ? p(problem.param) : undefined);
  return input;
}

/**
 * The one pipeline every claim type goes through:
 * validate → idempotency → claim check → sign → store (+ outbox event, atomically) → respond.
 */
export async function createRecord(db: Db, auth: AuthContext, raw: Record<string, unknown>, idempotencyKey: string): Promise<CreateResult> {
  const scope: IdempotencyScope = { accountId: auth.accountId, environment: auth.environment, endpoint: "records.create", key: idempotencyKey };
  const requestHash = sha256Hex(canonicalJson(raw));
  let input: RecordCreateInput;
  try {
    input = validateRecordInput(raw);
  } catch (err) {
    // Part of validation depends on the clock (expires_at, checked_at): a retry of a
    // create that succeeded must replay, not fail.
    const prior = await findIdempotent(db, scope, requestHash);
    if (prior?.kind === "replay") return { status: 200, bodyJson: prior.bodyJson, replayed: true };
    throw err;
  }
  const mod = claimModuleFor(input.claim_type);
  return mod.offline ? createOffline(db, auth, input, mod, scope, requestHash) : createAfterLookups(db, auth, input, mod, scope, requestHash);
}

/** The claim check, and for a record that passes it everything to write: row, history, answer, event. */
async function checkAndAssemble(db: Db, auth: AuthContext, input: RecordCreateInput, mod: ClaimModule) {
  requireActivePlan(auth);
  const now = new Date();
  const outcome = await mod.check(input, { auth, now, db });
  if (outcome.kind === "fail") throw ApiError.fromField(outcome.error);
  if (outcome.kind === "review") await requireReviewAllowance(db, auth, now);
  return { outcome, result: assemble(auth, input, outcome, now) };
}

/** No I/O in the check: check first, then one write that also claims the key. */
async function createOffline(db: Db, auth: AuthContext, input: RecordCreateInput, mod: ClaimModule, scope: IdempotencyScope, requestHash: string) {
  const { outcome, result } = await checkAndAssemble(db, auth, input, mod);
  if (await persist(db, auth, outcome, { ...result, key: { scope, requestHash, status: result.status, bodyJson: result.bodyJson, mode: "claim" } })) {
    return { status: result.status, bodyJson: result.bodyJson, replayed: false };
  }
  // The key was taken meanwhile (or before): answer as that request did.
  const prior = await findIdempotent(db, scope, requestHash);
  if (prior?.kind === "replay") return { status: 200 as const, bodyJson: prior.bodyJson, replayed: true };
  return createOffline(db, auth, input, mod, scope, requestHash); // released by a failed request: try again
}

/** A check that asks an outside source: claim the key first so duplicates see 409 while it runs. */
async function createAfterLookups(db: Db, auth: AuthContext, input: RecordCreateInput, mod: ClaimModule, scope: IdempotencyScope, requestHash: string) {
  const begun = await beginIdempotent(db, scope, requestHash);
  if (begun.kind === "replay") return { status: 200 as const, bodyJson: begun.bodyJson, replayed: true };
  try {
    const { outcome, result } = await checkAndAssemble(db, auth, input, mod);
    if (!(await persist(db, auth, outcome, { ...result, key: { scope, requestHash, status: result.status, bodyJson: result.bodyJson, mode: "complete" } }))) {
      throw new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed. Retry shortly.");
    }
    return { status: result.status, bodyJson: result.bodyJson, replayed: false };
  } catch (err) {
    await releaseIdempotent(db, scope, begun.claimedAt).catch((e) => console.error("idempotency release failed", e));
    throw err;
  }
}

class KeyTaken extends Error {}

/**
 * Write the record. Sandbox work with nothing else to do is one statement; live issuance
 * (metering) and claims that use up a challenge wrap it in a transaction with those steps.
 */
async function persist(db: Db, auth: AuthContext, outcome: Passed, bundle: Parameters<typeof insertRecordBundle>[1]) {
  const metered = outcome.kind === "issue" && auth.environment === "live";
  if (!metered && !outcome.commit) return insertRecordBundle(db, bundle);
  try {
    return await db.transaction(async (tx) => {
      if (metered) await meterLiveUsage(tx, auth, "live_records", bundle.row.createdAt);
      const refused = outcome.commit ? await outcome.commit(tx, bundle.row.id) : null;
      if (refused) throw ApiError.fromField(refused);
      if (!(await insertRecordBundle(tx, bundle))) throw new KeyTaken(); // roll back the metering too
      return true;
    });
  } catch (e) {
    if (e instanceof KeyTaken) return false;
    throw e;
  }
}

export type Passed = Exclude<CheckOutcome, { kind: "fail" }>;

/** The row, its first history entry, the answer and the outbox event of a new record. */
export function assemble(auth: AuthContext, input: RecordCreateInput, outcome: Passed, now: Date) {
  const row = buildRow(auth, input, outcome, now);
  const history = {
    recordId: row.id, status: row.status, at: now, by: `owner:${auth.keyId}`,
    reason: outcome.kind === "issue" ? "Issued." : "Submitted for review.",
  };
  const body = serializeRecord(row, [{ seq: 0, ...history }], now.getTime());
  const bodyJson = JSON.stringify(body);
  const event = buildEvent({
    accountId: auth.accountId, environment: auth.environment, at: now,
    type: outcome.kind === "issue" ? "record.issued" : "record.pending_review", data: { record: body }, recordJson: bodyJson,
  });
  return { status: (outcome.kind === "issue" ? 201 : 202) as 201 | 202, bodyJson, row, history, event };
}

function buildRow(auth: AuthContext, input: RecordCreateInput, outcome: Passed, now: Date): RecordRow {
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
  const expiresAt = input.expires_at ? new Date(input.expires_at) : defaultExpiry(now);
  return { ...base, status: "active" as const, reviewReason: null, recheckAt: outcome.recheckAt ?? null, supersededBy: null,
    ...signIssue({ ...base, evidence: outcome.publicEvidence, expiresAt }, now) };
}
