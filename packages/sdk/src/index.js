export { PrsClient } from "./client.js";
export { PrsError, InvalidRequestError, AuthenticationError, PaymentRequiredError, RateLimitError, IdempotencyError, ConflictError, NotFoundError, ApiError, PrsConnectionError, errorFromResponse, } from "./errors.js";
export { operationTable } from "./generated/operations.js";
export { methodTable, methodEntries } from "./methods.js";
export { DEFAULT_RETRY, backoffMs, parseRetryAfter } from "./retry.js";
export { verifyStatus, verifyLookup, verifyCheck, verifySignedAnswer, jwksKey, publicKeyProblem, ed25519VerifyStrict, canonicalBytes, fromBase64Url, } from "./verify.js";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.js";
