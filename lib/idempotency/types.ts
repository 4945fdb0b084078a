import type { AuthContext } from "@/lib/accounts/types";

/** Where a key lives: one account, environment and endpoint. */
export type IdempotencyScope = { accountId: string; environment: AuthContext["environment"]; endpoint: string; key: string };

/** `claimedAt` identifies this request's claim (its lease start), so it only ever releases its own. */
export type Begun = { kind: "new"; claimedAt: Date } | { kind: "replay"; status: number; bodyJson: string };

/**
 * The key a piece of work must finish in the same write as the change it reports.
 * "claim": the key must still be new (the fast path stores it as done in that write).
 * "complete": this request claimed it earlier (state running) and now completes it.
 */
export type KeyClaim = { scope: IdempotencyScope; requestHash: string; mode: "claim" | "complete" };

/** An answer as sent: the same text is stored for replays. */
export type Answer<S extends number = number> = { status: S; bodyJson: string };
