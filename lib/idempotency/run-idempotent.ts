import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log/logger";
import { canonicalJson, sha256Hex } from "@/lib/signing/canonical";
import { beginIdempotent, findIdempotent, releaseIdempotent } from "./key-store";
import { KeyTaken, keyInUse } from "./key-taken";
import type { Answer, IdempotencyScope, KeyClaim } from "./types";

export type IdempotentRun<T, S extends number> = {
  scope: IdempotencyScope;
  /** The request body as received; its canonical hash tells a retry from a different request. */
  body: unknown;
  /** Parse and check the body without I/O; throws the first problem. */
  validate: () => T;
  /** True when `execute` needs no outside I/O: skip the running claim (see below). */
  fastPath?: (input: T) => boolean;
  /**
   * Do the work and finish `key` in the same write that stores it (one statement, or one
   * transaction), throwing `KeyTaken` (which rolls that write back) when the key was not ours.
   */
  execute: (input: T, key: KeyClaim) => Promise<Answer<S>>;
  /** The body a replay sends, from the stored answer (default: the stored text as is). */
  replayBody?: (storedJson: string) => string;
};

export type IdempotentResult<S extends number> = Answer<S | 200> & { replayed: boolean };

/**
 * Run a create under its Idempotency-Key. Every request goes in one of three ways:
 *
 * - **Replay**: the key already holds this body's finished answer → that answer with 200 and
 *   `replayed`. Nothing runs again. When the body fails validation the key is looked up
 *   first, because some rules depend on the clock: a retry of a create that went through
 *   replays rather than fails. Another body under the key is 422 `idempotency_key_reused`;
 *   a running claim is 409 `idempotency_key_in_use`.
 * - **Fast path** (`fastPath(input)`, work without outside I/O): `execute` runs first and its
 *   single write stores the key as done with the answer (`mode: "claim"`) — one statement
 *   for an offline create. If the key was taken before or meanwhile, nothing is written and
 *   the answer is that request's (or 409/422); if it was released meanwhile, run again.
 * - **Begin / complete / release** (everything else): claim the key as running first, so a
 *   duplicate gets 409 while the work runs and exactly one of racing duplicates does it;
 *   `execute` completes the key in the write that stores the change (`mode: "complete"`).
 *   Any error releases the claim, so a failed request does not burn the key — unless the
 *   key is no longer ours (`KeyTaken`: a lapsed claim was taken over), which is 409.
 */
export async function runIdempotent<T, S extends number>(db: Db, run: IdempotentRun<T, S>): Promise<IdempotentResult<S>> {
  const requestHash = sha256Hex(canonicalJson(run.body));
  let input: T;
  try {
    input = run.validate();
  } catch (err) {
    const prior = await findIdempotent(db, run.scope, requestHash);
    if (prior?.kind === "replay") return replay(run.replayBody, prior.bodyJson);
    throw err;
  }
  return run.fastPath?.(input) ? executeThenClaim(db, run, input, requestHash) : claimThenExecute(db, run, input, requestHash);
}

const replay = (replayBody: ((storedJson: string) => string) | undefined, storedJson: string) => ({
  status: 200 as const, bodyJson: replayBody ? replayBody(storedJson) : storedJson, replayed: true,
});

async function executeThenClaim<T, S extends number>(db: Db, run: IdempotentRun<T, S>, input: T, requestHash: string): Promise<IdempotentResult<S>> {
  for (;;) {
    try {
      return { ...(await run.execute(input, { scope: run.scope, requestHash, mode: "claim" })), replayed: false };
    } catch (err) {
      if (!(err instanceof KeyTaken)) throw err;
    }
    // The key was taken meanwhile (or before): answer as that request did.
    const prior = await findIdempotent(db, run.scope, requestHash);
    if (prior?.kind === "replay") return replay(run.replayBody, prior.bodyJson);
    // Released by a failed request meanwhile: try again.
  }
}

async function claimThenExecute<T, S extends number>(db: Db, run: IdempotentRun<T, S>, input: T, requestHash: string): Promise<IdempotentResult<S>> {
  const begun = await beginIdempotent(db, run.scope, requestHash);
  if (begun.kind === "replay") return replay(run.replayBody, begun.bodyJson);
  try {
    return { ...(await run.execute(input, { scope: run.scope, requestHash, mode: "complete" })), replayed: false };
  } catch (err) {
    // Another request holds the key now (it took over a lapsed claim): leave its claim alone.
    if (err instanceof KeyTaken) throw keyInUse();
    // Nothing was written: free the key so a corrected retry can use it.
    await releaseIdempotent(db, run.scope, begun.claimedAt).catch((err) => log().error({ err }, "idempotency release failed"));
    throw err;
  }
}
