import { ApiError } from "@/lib/http/errors";

/**
 * Thrown by work whose write found its key no longer its own (taken meanwhile, or completed
 * by another request). Throwing rolls back the transaction it was raised in.
 */
export class KeyTaken extends Error {}

export const keyInUse = () =>
  new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is still being processed. Retry shortly.");
