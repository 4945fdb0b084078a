import { and, eq } from "drizzle-orm";
import { records, type RecordStatus } from "@/drizzle/schema";
import type { AuthContext } from "@/lib/accounts/types";
import type { Db, DbOrTx, Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import type { SharedRateLimiter } from "@/lib/http/rate-limit";
import { sharedRateLimiter } from "@/lib/http/shared-rate-limiter";
import { rateLimitHeaders } from "@/lib/http/with-rate-limit";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import { applyTransition } from "./apply-transition";
import { getRecordOrThrow } from "@/lib/record-model/get-record";
import { recheckBeforeReinstate, recheckDue, refuseReinstateWhilePartsLapsed, storeRecheck } from "./reinstate-rules";
import { lastMover, moverKind } from "@/lib/record-model/standing-actor";
import type { LifecycleInput, LifecycleOperation } from "@/lib/record-model/schemas";
import { invalidateStatus } from "@/lib/record-model/status-cache";

/** CONTRACT, Lifecycle: the only allowed moves. Everything else is 409 invalid_transition. */
export const TRANSITIONS: Partial<Record<RecordStatus, Partial<Record<LifecycleOperation, RecordStatus>>>> = {
  active: { suspend: "suspended", revoke: "revoked", expire: "expired", supersede: "superseded" },
  suspended: { reinstate: "active", revoke: "revoked", expire: "expired", supersede: "superseded" },
};

export async function changeLifecycle(db: Db, auth: AuthContext, id: string, input: LifecycleInput) {
  // A reinstatement whose re-check is due runs it first, outside the transaction (it asks
  // outside sources): after every cheap refusal, and after spending the record's allowance, so
  // a failing re-check cannot be asked for without limit.
  let rechecked: Date | null = null;
  let spent = false;
  if (input.operation === "reinstate") {
    const pre = await getRecordOrThrow(db, auth, id);
    allowedMove(pre, input.operation);
    await checkOwnerMayReinstate(db, pre);
    if (recheckDue(pre)) {
      await spendLifecycleAllowance(pre.id);
      spent = true;
      rechecked = await recheckBeforeReinstate(pre);
    }
  }
  const record = await db.transaction(async (tx) => {
    const row = await getRecordOrThrow(tx, auth, id, { forUpdate: true });
    const now = new Date();
    const next = allowedMove(row, input.operation, now);
    if (!spent) await spendLifecycleAllowance(row.id);
    if (input.operation === "reinstate") await checkOwnerMayReinstate(tx, row);
    if (input.operation === "supersede") await checkSuccessor(tx, auth, row, input.superseded_by);
    else if (input.superseded_by !== undefined) {
      throw new ApiError("field_not_allowed", "'superseded_by' is only used with the supersede operation.", "superseded_by");
    }
    const body = await applyTransition(tx, await storeRecheck(tx, row, rechecked), {
      next, at: now, reason: input.reason, by: `owner:${auth.keyId}`, operation: input.operation, supersededBy: input.superseded_by,
    });
    return body;
  });
  invalidateStatus(id);
  return record;
}

/** Where `operation` moves the record from its status now; 409 `invalid_transition` if nowhere. */
function allowedMove(row: Parameters<typeof effectiveStatus>[0], operation: LifecycleOperation, now = new Date()): RecordStatus {
  const current = effectiveStatus(row, now.getTime()).status;
  const next = TRANSITIONS[current]?.[operation];
  if (!next) throw new ApiError("invalid_transition", `A ${current} record cannot be moved with '${operation}'.`, "operation");
  return next;
}

const g = globalThis as unknown as { __prsLifecycleLimiter?: SharedRateLimiter };

/**
 * A record's history is public and every public read of it carries it: its owner may move
 * it LIFECYCLE_CHANGES_PER_HOUR times an hour, then 429 `rate_limited` with Retry-After.
 * Counted per record (shared by every instance on PostgreSQL), only for its owner's valid
 * moves — nobody else can spend a record's allowance — and never for staff or the system.
 */
async function spendLifecycleAllowance(recordId: string) {
  g.__prsLifecycleLimiter ??= sharedRateLimiter({ limit: getEnv().LIFECYCLE_CHANGES_PER_HOUR, windowMs: 3600_000 });
  const r = await g.__prsLifecycleLimiter.hit(`lifecycle:${recordId}`);
  if (r.ok) return;
  throw new ApiError(
    "rate_limited",
    `This record's status was changed ${r.limit} times within the hour, the most allowed; try again in ${r.retryAfterSeconds} s.`,
    undefined, undefined, { ...rateLimitHeaders(r), "Retry-After": String(r.retryAfterSeconds) },
  );
}

/**
 * CONTRACT "What still stands": a suspension by the system (a re-check, a lapsed part) or by
 * staff is lifted only by the system or staff; the owner lifts only its own.
 */
async function checkOwnerMayReinstate(tx: DbOrTx, row: { id: string; claimType: string }) {
  const by = await lastMover(tx, row.id);
  const kind = by ? moverKind(by) : "owner";
  if (kind === "system") {
    throw new ApiError("suspended_by_system", "This record was suspended by Proof Records' own checks (a re-check, or a record it rests on lapsed); it is reinstated by the system when the evidence stands again, not by its owner.", "operation");
  }
  if (kind === "staff") {
    throw new ApiError("suspended_by_staff", "This record was suspended by Proof Records staff; only staff can reinstate it. Contact support.", "operation");
  }
  await refuseReinstateWhilePartsLapsed(tx, row);
}

async function checkSuccessor(tx: Tx, auth: AuthContext, row: { id: string; claimType: string }, successorId?: string) {
  if (!successorId) {
    throw new ApiError("missing_field", "'superseded_by' is required for the supersede operation.", "superseded_by");
  }
  const refuse = (why: string) => new ApiError("invalid_superseding_record", why, "superseded_by");
  if (successorId === row.id) throw refuse("A record cannot supersede itself.");
  const [s] = await tx
    .select()
    .from(records)
    .where(and(eq(records.id, successorId), eq(records.accountId, auth.accountId), eq(records.environment, auth.environment)));
  if (!s) throw refuse(`No record ${successorId} in this account and environment.`);
  if (s.claimType !== row.claimType) throw refuse("The superseding record must have the same claim_type.");
  if (effectiveStatus(s).status !== "active") throw refuse("The superseding record must be active.");
}
