import { ApiError } from "@/lib/http/errors";

const KEY_RE = /^[\x21-\x7E]{1,255}$/;

/** The request's `Idempotency-Key` header: required, 1-255 printable ASCII characters. */
export function idempotencyKeyFrom(req: Request): string {
  const key = req.headers.get("idempotency-key");
  if (key === null || key === "") {
    throw new ApiError("idempotency_key_required", "Send an 'Idempotency-Key' header (1-255 printable characters).");
  }
  if (!KEY_RE.test(key)) {
    throw new ApiError("invalid_idempotency_key", "'Idempotency-Key' must be 1-255 printable ASCII characters without spaces.");
  }
  return key;
}
