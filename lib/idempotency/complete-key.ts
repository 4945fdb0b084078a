import type { DbOrTx } from "@/lib/db/client";
import { completeIdempotent } from "./key-store";
import { KeyTaken } from "./key-taken";
import type { Answer, KeyClaim } from "./types";

/**
 * Complete this request's running claim with its answer inside the transaction that stores
 * the change; throws KeyTaken (rolling everything back) when the key is no longer ours.
 * Only for the begin/complete way in: on the fast path there is no running claim to complete.
 */
export async function completeKey(tx: DbOrTx, key: KeyClaim, answer: Answer) {
  if (key.mode !== "complete") throw new Error("completeKey: the key was not claimed first (fast path?)");
  if (!(await completeIdempotent(tx, key.scope, key.requestHash, answer.status, answer.bodyJson))) throw new KeyTaken();
}
