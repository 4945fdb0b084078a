import { z } from "zod";
import { meterLiveUsage, requireActivePlan, requireReviewAllowance } from "@/lib/accounts/plans";
import { getAccountProfile } from "@/lib/accounts/account-profile";
import { notifyStatusChanged } from "@/lib/record-model/notify-status";
import { invalidateStatus } from "@/lib/record-model/status-cache";
import type { AuthContext } from "@/lib/accounts/types";
import { claimModuleFor, likelyTypoOf, maxValidityDays } from "@/lib/claims/registry";
import type { ClaimRequest } from "@/lib/claims/types";
import type { Db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { KeyTaken } from "@/lib/idempotency/key-taken";
import { runIdempotent, type IdempotentResult } from "@/lib/idempotency/run-idempotent";
import { canonicalJson } from "@/lib/signing/canonical";
import { assemble, type Passed } from "./assemble-record";
import { checkClaim } from "./check-claim";
import { insertRecordBundle, type BundleKey, type RecordBundle } from "./insert-record-bundle";
import { movedByNewRecords } from "./moved-by-new-records";
import { recordCreateSchema, type RecordCreateInput } from "@/lib/record-model/schemas";
import { announceIssued } from "./announce-issued";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const EVIDENCE_LIMIT = 32 * 1024;
const MAX_VALIDITY_MS = 5 * 366 * 86_400_000;

/** `bodyJson` is the answer as sent: the same text is stored for replays and spliced into the event. */
export type CreateResult = IdempotentResult<201 | 202>;

/**
 * Shape and type-specific checks that need no I/O; the first problem is thrown as a 422. The
 * claim type's module is resolved once, here, and travels with the input.
 */
export function validateRecordInput(raw: unknown, prefix = ""): ClaimRequest {
  const p = (f: string) => (prefix ? `${prefix}.${f}` : f);
  // The claim_type as sent: the parse below keeps a valid one unchanged, and refuses any other.
  const mod = claimModuleFor(isObject(raw) && typeof raw.claim_type === "string" ? raw.claim_type : "");
  // A type's own top-level fields (and its screen for what must never be echoed) come first.
  const screened = mod.request.screen?.(raw as Record<string, unknown>);
  if (screened) throw new ApiError(screened.code, screened.message, screened.param ? p(screened.param) : undefined);
  const ownKeys = Object.keys(mod.request.requestFields ?? {});
  const base = ownKeys.length && isObject(raw) ? Object.fromEntries(Object.entries(raw).filter(([k]) => !ownKeys.includes(k))) : raw;
  const input: RecordCreateInput = parseOrThrow(recordCreateSchema, base, prefix);
  if (ownKeys.length && isObject(raw)) {
    // The type's fields, parsed by its schema and carried to its check beside the base ones.
    const given = Object.fromEntries(Object.entries(raw).filter(([k]) => ownKeys.includes(k)));
    Object.assign(input, parseOrThrow(z.strictObject(mod.request.requestFields!), given, prefix));
  }
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
  const meant = likelyTypoOf(input.claim_type);
  if (meant) throw new ApiError("unknown_claim_type", `Unknown claim_type '${input.claim_type}'; did you mean '${meant}'?`, p("claim_type"));
  const maxDays = maxValidityDays(mod);
  if (maxDays !== undefined && input.expires_at !== undefined && Date.parse(input.expires_at) > Date.now() + maxDays * 86_400_000) {
    throw new ApiError("invalid_value", `A ${input.claim_type} record is valid for at most ${maxDays} days: 'expires_at' is later.`, p("expires_at"));
  }
  const problem = mod.request.validate(input);
  if (problem) throw new ApiError(problem.code, problem.message, problem.param ? p(problem.param) : undefined);
  return { input, module: mod };
}

/**
 * The one pipeline every claim type goes through:
 * validate → idempotency → claim check → sign → store (+ outbox event, atomically) → respond.
 * A check without outside I/O takes the idempotency fast path: one statement for the create.
 */
export async function createRecord(db: Db, auth: AuthContext, raw: Record<string, unknown>, idempotencyKey: string): Promise<CreateResult> {
  return runIdempotent(db, {
    scope: { accountId: auth.accountId, environment: auth.environment, endpoint: "records.create", key: idempotencyKey },
    body: raw,
    validate: () => validateRecordInput(raw),
    fastPath: (request) => request.module.checking?.offline === true,
    execute: async (request, key) => {
      const { outcome, result } = await checkAndAssemble(db, auth, request);
      await persist(db, auth, outcome, { ...result, key: { ...key, status: result.status, bodyJson: result.bodyJson } });
      return { status: result.status, bodyJson: result.bodyJson };
    },
  });
}

/** The claim check, and for a record that passes it everything to write: row, history, answer, event. */
async function checkAndAssemble(db: Db, auth: AuthContext, request: ClaimRequest) {
  requireActivePlan(auth);
  const now = new Date();
  const [{ outcome, linked, extras }, account] = await Promise.all([checkClaim(db, auth, request, now), getAccountProfile(db, auth.accountId)]);
  if (outcome.kind === "fail") throw ApiError.fromField(outcome.error);
  if (outcome.kind === "review") await requireReviewAllowance(db, auth, now);
  return { outcome, result: assemble(auth, request, outcome, linked, account, now, extras) };
}

/**
 * Write the record and its key's answer. Sandbox work with nothing else to do is one statement;
 * live issuance (metering) and claims that use up a challenge wrap it in a transaction with
 * those steps. Throws KeyTaken when the key was not ours (nothing written). Cached views the
 * new record moves (movedByNewRecords) are told once it is written.
 */
async function persist(db: Db, auth: AuthContext, outcome: Passed, bundle: RecordBundle & { key: BundleKey }) {
  const metered = outcome.kind === "issue" && auth.environment === "live";
  const moved = movedByNewRecords([bundle]);
  if (!metered && !outcome.commit) {
    if (!(await insertRecordBundle(db, bundle))) throw new KeyTaken();
    if (moved.length) await notifyStatusChanged(db, moved);
  } else {
    await db.transaction(async (tx) => {
      if (metered) await meterLiveUsage(tx, auth, "live_records", bundle.row.createdAt);
      const refused = outcome.commit ? await outcome.commit(tx, bundle.row.id) : null;
      if (refused) throw ApiError.fromField(refused);
      if (!(await insertRecordBundle(tx, bundle))) throw new KeyTaken(); // roll back the metering too
      if (moved.length) await notifyStatusChanged(tx, moved);
      await announceIssued(tx, [bundle.row]); // a live issued record is always metered, so always here
    });
  }
  if (moved.length) invalidateStatus(moved);
}
