import { and, eq, lt, sql } from "drizzle-orm";
import { idempotencyKeys } from "@/drizzle/schema";
import type { Db, DbOrTx } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { keyInUse as inUse } from "./key-taken";
import type { Answer, Begun, IdempotencyScope, KeyClaim } from "./types";

/**
 * The idempotency_keys table: claim, look up, complete and release one key. Callers go
 * through runIdempotent (run-idempotent.ts), which decides which of these a request uses.
 */

/** A running request that has not finished in this time is presumed dead and may be taken over. */
const LEASE_MS = 60_000;

const where = (s: IdempotencyScope) =>
  and(
    eq(idempotencyKeys.accountId, s.accountId),
    eq(idempotencyKeys.environment, s.environment),
    eq(idempotencyKeys.endpoint, s.endpoint),
    eq(idempotencyKeys.key, s.key),
  );

/**
 * Claim the key before doing the work. The primary key makes concurrent duplicates
 * collide here, so exactly one of them runs; the others see 409 or the finished result.
 */
export async function beginIdempotent(db: Db, scope: IdempotencyScope, requestHash: string): Promise<Begun> {
  const now = new Date();
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ ...scope, requestHash, state: "running", lockedAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length === 1) return { kind: "new", claimedAt: now };

  const [row] = await db.select().from(idempotencyKeys).where(where(scope));
  if (!row) return beginIdempotent(db, scope, requestHash); // released meanwhile: try again
  const known = answerFor(row, requestHash, now);
  if (known) return known;
  // The holder's lease ran out (it crashed): take the key over, unless someone else just did.
  const taken = await db
    .update(idempotencyKeys)
    .set({ lockedAt: now })
    .where(and(where(scope), eq(idempotencyKeys.state, "running"), eq(idempotencyKeys.lockedAt, row.lockedAt)))
    .returning({ key: idempotencyKeys.key });
  if (taken.length === 1) return { kind: "new", claimedAt: now };
  throw inUse();
}

/** What an existing key says about a request: replay it, refuse it, or null = stale running claim. */
function answerFor(row: typeof idempotencyKeys.$inferSelect, requestHash: string, now: Date): Begun | null {
  if (row.requestHash !== requestHash) {
    throw new ApiError("idempotency_key_reused", "This Idempotency-Key was used with a different request body.");
  }
  if (row.state === "done") {
    return { kind: "replay", status: row.responseStatus ?? 200, bodyJson: row.responseBody ?? "{}" };
  }
  if (now.getTime() - row.lockedAt.getTime() < LEASE_MS) throw inUse();
  return null;
}

/** An earlier request under this key, if any: its replay, or the refusal it implies. */
export async function findIdempotent(db: DbOrTx, scope: IdempotencyScope, requestHash: string): Promise<Begun | null> {
  const [row] = await db.select().from(idempotencyKeys).where(where(scope));
  if (!row) return null;
  const known = answerFor(row, requestHash, new Date());
  if (!known) throw inUse(); // a stale running claim: the retry should go through beginIdempotent
  return known;
}

/** The one rule for completing a key: only this request's running claim (not one done meanwhile, nor one claimed for another body). */
const ownRunningClaim = (requestHash: string) => and(eq(idempotencyKeys.state, "running"), eq(idempotencyKeys.requestHash, requestHash));

/**
 * Store the answer (JSON text, replayed byte for byte) in the same transaction as the change
 * it reports. Only this request's running claim is completed: false when the key is no longer
 * ours (done meanwhile, or released and claimed for another body), and the caller rolls back.
 */
export async function completeIdempotent(tx: DbOrTx, scope: IdempotencyScope, requestHash: string, status: number, bodyJson: string) {
  const done = await tx
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: status, responseBody: bodyJson })
    .where(and(where(scope), ownRunningClaim(requestHash)))
    .returning({ key: idempotencyKeys.key });
  return done.length === 1;
}

/**
 * The key stored as done with `answer` at `at`, as one statement to embed in a larger one
 * (insert-record-bundle.ts: `idem as ${storeKeyDone(…)}`): "claim" inserts it only if it is new,
 * "complete" completes this request's running claim (or stores it, when it was released
 * meanwhile). It returns a row only when the key was stored.
 */
export function storeKeyDone(db: DbOrTx, k: KeyClaim, answer: Answer, at: Date) {
  const insert = db.insert(idempotencyKeys).values({
    ...k.scope, requestHash: k.requestHash, state: "done", responseStatus: answer.status, responseBody: answer.bodyJson, lockedAt: at, createdAt: at,
  });
  const stored = k.mode === "claim"
    ? insert.onConflictDoNothing()
    : insert.onConflictDoUpdate({
      target: [idempotencyKeys.accountId, idempotencyKeys.environment, idempotencyKeys.endpoint, idempotencyKeys.key],
      set: { state: "done", responseStatus: sql`excluded.response_status`, responseBody: sql`excluded.response_body` },
      setWhere: ownRunningClaim(k.requestHash),
    });
  return stored.returning({ key: idempotencyKeys.key });
}

/** The work failed with an error: forget the key so a corrected retry can use it. */
export async function releaseIdempotent(db: Db, scope: IdempotencyScope, claimedAt: Date) {
  // Only our own claim: after a lease takeover the key belongs to the request that took it.
  await db
    .delete(idempotencyKeys)
    .where(and(where(scope), eq(idempotencyKeys.state, "running"), eq(idempotencyKeys.lockedAt, claimedAt)));
}

/** Keys are kept at least 24 h; older ones are purged by the background sweep. */
export async function purgeIdempotencyKeys(db: Db, olderThanMs = 48 * 3600_000) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`));
}
