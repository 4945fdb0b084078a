import { meterLiveUsage, requireReviewAllowance, requireActivePlan } from "@/lib/accounts/plans";
import type { AuthContext } from "@/lib/accounts/types";
import { claimModuleFor } from "@/lib/claims/registry";
import type { CheckOutcome, CommitHook } from "@/lib/claims/types";
import type { Db, Tx } from "@/lib/db/client";
import { ApiError, type FieldError } from "@/lib/http/errors";
import {
  beginIdempotent, completeIdempotent, findIdempotent, releaseIdempotent, type IdempotencyScope,
} from "@/lib/idempotency/idempotency";
import { newBatchId } from "@/lib/ids";
import { canonicalJson, sha256Hex } from "@/lib/signing/canonical";
import { batchAnswer, replayedBatch, type BatchRowResult } from "./batch-answer";
import { assemble, type Passed } from "./create-record";
import { insertRecordBundles } from "./insert-record-bundle";
import type { RecordCreateInput } from "./schemas";
import { recordUrls } from "./urls";
import { validateBatchInput } from "./validate-batch";

/** Claim checks that ask an outside source (DNS, RPC) run this many at a time. */
const CHECK_CONCURRENCY = 8;

/** `bodyJson` is the answer as sent (200 either way). */
export type BatchResult = { bodyJson: string; replayed: boolean };

/**
 * POST /api/v1/records/batch: up to 250 records under one Idempotency-Key.
 * validate every row → claim the key → check each row → ONE transaction writes every row
 * that passed (metering, challenge use, record + history + outbox event) and the key's answer.
 * A row whose check fails is `failed` and the others still issue; an invalid row, an
 * exhausted allowance or any error issues nothing.
 */
export async function createBatch(db: Db, auth: AuthContext, raw: Record<string, unknown>, idempotencyKey: string): Promise<BatchResult> {
  const scope: IdempotencyScope = { accountId: auth.accountId, environment: auth.environment, endpoint: "records.batch", key: idempotencyKey };
  const requestHash = sha256Hex(canonicalJson(raw));
  let inputs: RecordCreateInput[];
  try {
    inputs = validateBatchInput(raw);
  } catch (err) {
    // Clock-dependent rules (expires_at, checked_at): a retry of a batch that went through replays.
    const prior = await findIdempotent(db, scope, requestHash);
    if (prior?.kind === "replay") return replay(prior.bodyJson);
    throw err;
  }
  const begun = await beginIdempotent(db, scope, requestHash);
  if (begun.kind === "replay") return replay(begun.bodyJson);
  try {
    requireActivePlan(auth);
    return { bodyJson: await issueRows(db, auth, inputs, scope, requestHash), replayed: false };
  } catch (err) {
    // Another request holds the key now (it took over a lapsed claim): leave its claim alone.
    if (err instanceof KeyTaken) {
      throw new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed. Retry shortly.");
    }
    // Nothing was written: free the key so a corrected retry can use it.
    await releaseIdempotent(db, scope, begun.claimedAt).catch((e) => console.error("idempotency release failed", e));
    throw err;
  }
}

const replay = (storedJson: string): BatchResult => ({ bodyJson: JSON.stringify(replayedBatch(storedJson)), replayed: true });

class KeyTaken extends Error {}
class Refused extends Error {
  constructor(readonly error: FieldError) {
    super(error.message);
  }
}

type Ready = { index: number; outcome: Passed } & ReturnType<typeof assemble>;

async function issueRows(db: Db, auth: AuthContext, inputs: RecordCreateInput[], scope: IdempotencyScope, requestHash: string) {
  const now = new Date();
  const outcomes = await mapLimit(inputs, CHECK_CONCURRENCY, (input) => claimModuleFor(input.claim_type).check(input, { auth, now, db }));
  const results: BatchRowResult[] = [];
  const ready: Ready[] = [];
  outcomes.forEach((outcome: CheckOutcome, index) => {
    if (outcome.kind === "fail") results[index] = failed(index, outcome.error);
    else ready.push({ index, outcome, ...assemble(auth, inputs[index]!, outcome, now) });
  });

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
    if (!(await completeIdempotent(tx, scope, requestHash, 200, json))) throw new KeyTaken(); // rolls everything back
    return json;
  });
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
