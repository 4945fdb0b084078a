import { meterLiveUsage, requireReviewAllowance, requireActivePlan } from "@/lib/accounts/plans";
import { getAccountProfile } from "@/lib/accounts/account-profile";
import type { AuthContext } from "@/lib/accounts/types";
import type { CheckOutcome, ClaimRequest, CommitHook } from "@/lib/claims/types";
import type { Db, Tx } from "@/lib/db/client";
import type { FieldError } from "@/lib/http/errors";
import { completeKey } from "@/lib/idempotency/complete-key";
import { runIdempotent, type IdempotentResult } from "@/lib/idempotency/run-idempotent";
import type { KeyClaim } from "@/lib/idempotency/types";
import { newBatchId } from "@/lib/ids";
import { assemble, type Passed } from "./assemble-record";
import { checkClaim } from "./check-claim";
import { batchAnswer, replayedBatch, type BatchRowResult } from "./batch-answer";
import { insertRecordBundles } from "./insert-record-bundle";
import { movedByNewRecords } from "./moved-by-new-records";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import { recordUrls } from "@/lib/record-model/urls";
import { validateBatchInput } from "./validate-batch";
import { announceIssued } from "./announce-issued";

/** Claim checks that ask an outside source (DNS, RPC) run this many at a time. */
const CHECK_CONCURRENCY = 8;

/** `bodyJson` is the answer as sent (200 either way). */
export type BatchResult = IdempotentResult<200>;

/**
 * POST /api/v1/records/batch: up to 250 records under one Idempotency-Key.
 * validate every row → claim the key → check each row → ONE transaction writes every row
 * that passed (metering, challenge use, record + history + outbox event) and the key's answer.
 * A row whose check fails is `failed` and the others still issue; an invalid row, an
 * exhausted allowance or any error issues nothing (and frees the key).
 */
export async function createBatch(db: Db, auth: AuthContext, raw: Record<string, unknown>, idempotencyKey: string): Promise<BatchResult> {
  return runIdempotent(db, {
    scope: { accountId: auth.accountId, environment: auth.environment, endpoint: "records.batch", key: idempotencyKey },
    body: raw,
    validate: () => validateBatchInput(raw),
    execute: async (inputs, key) => {
      requireActivePlan(auth);
      return { status: 200 as const, bodyJson: await issueRows(db, auth, inputs, key) };
    },
    replayBody: (storedJson) => JSON.stringify(replayedBatch(storedJson)),
  });
}

class Refused extends Error {
  constructor(readonly error: FieldError) {
    super(error.message);
  }
}

type Ready = { index: number; outcome: Passed } & ReturnType<typeof assemble>;

async function issueRows(db: Db, auth: AuthContext, inputs: ClaimRequest[], key: KeyClaim) {
  const now = new Date();
  const [outcomes, account] = await Promise.all([
    mapLimit(inputs, CHECK_CONCURRENCY, (request) => checkClaim(db, auth, request, now)),
    getAccountProfile(db, auth.accountId),
  ]);
  const results: BatchRowResult[] = [];
  const ready: Ready[] = [];
  outcomes.forEach(({ outcome, linked, extras }, index) => {
    if (outcome.kind === "fail") results[index] = failed(index, outcome.error);
    else ready.push({ index, outcome, ...assemble(auth, inputs[index]!, outcome, linked, account, now, extras) });
  });

  let moved: string[] = [];
  const bodyJson = await db.transaction(async (tx) => {
    const writing: Ready[] = [];
    for (const r of ready) {
      const refused = r.outcome.commit ? await runHook(tx, r.outcome.commit, r.row.id) : null;
      if (refused) results[r.index] = failed(r.index, refused);
      else writing.push(r);
    }
    const issued = writing.filter((r) => r.outcome.kind === "issue").length;
    if (issued > 0) await meterLiveUsage(tx, auth, "live_records", now, issued);
    if (writing.length > issued) await requireReviewAllowance(tx, auth, now);
    await insertRecordBundles(tx, writing); // all rows in one statement
    moved = movedByNewRecords(writing);
    if (moved.length) await notifyStatusChanged(tx, moved);
    await announceIssued(tx, writing.map((r) => r.row));
    for (const r of writing) {
      results[r.index] = {
        index: r.index,
        outcome: r.row.status === "active" ? "issued" : "pending_review",
        verification_id: r.row.id,
        status: r.row.status,
        certificate_url: r.row.status === "active" ? recordUrls(r.row.id).certificate_url : null,
      };
    }
    const json = JSON.stringify(batchAnswer(newBatchId(), results));
    await completeKey(tx, key, { status: 200, bodyJson: json }); // KeyTaken rolls everything back
    return json;
  });
  if (moved.length) invalidateStatus(moved);
  return bodyJson;
}

/** A row's commit hook (e.g. using up its challenge) in a savepoint: a refusal undoes only that row. */
async function runHook(tx: Tx, hook: CommitHook, recordId: string): Promise<FieldError | null> {
  try {
    await tx.transaction(async (sp) => {
      const refused = await hook(sp, recordId);
      if (refused) throw new Refused(refused);
    });
    return null;
  } catch (err) {
    if (err instanceof Refused) return err.error;
    throw err;
  }
}

function failed(index: number, e: FieldError): BatchRowResult {
  const error: FieldError = { code: e.code, ...(e.param !== undefined && { param: `records[${index}].${e.param}` }), message: e.message };
  return { index, outcome: "failed", error };
}

/** `fn` over `items` with at most `limit` calls in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
