export { PrsClient, type ClientOptions, type RequestOptions, type RequestInput, type PrsResponse, type OperationMethod, type RequestBody, type QueryParams, type ResponseData } from "./client.js";
export {
  PrsError, InvalidRequestError, AuthenticationError, PaymentRequiredError, RateLimitError, IdempotencyError, ConflictError, NotFoundError, ApiError,
  PrsConnectionError, errorFromResponse, type PrsErrorInit, type ErrorEnvelope,
} from "./errors.js";
export { operationTable, type OperationId } from "./generated/operations.js";
export type { components, operations, paths } from "./generated/openapi.js";
export { methodTable, methodEntries, type CoveredOperationId } from "./methods.js";
export { DEFAULT_RETRY, backoffMs, parseRetryAfter, type RetryPolicy } from "./retry.js";
export {
  verifyStatus, verifyLookup, verifyCheck, verifySignedAnswer, jwksKey, publicKeyProblem, ed25519VerifyStrict, canonicalBytes, fromBase64Url,
  type Jwk, type Jwks, type SignedStatus, type LookupAnswer, type CheckAnswer, type VerifyResult, type VerifyFailure,
} from "./verify.js";
export { verifyCheckpoint, openNote, parseVkey, type CheckpointPolicy, type CheckpointResult, type CheckpointFailure, type NoteKey } from "./checkpoint.js";
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType, type WebhookVerifyKeys, type WebhookVerifyOptions, type WebhookFailure } from "./webhooks.js";
