/**
 * One error class, one envelope, one code → (status, type) table. Anything thrown that
 * is not an ApiError becomes a logged, generic 500 whose message is never echoed.
 */
export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "payment_required"
  | "rate_limit_error"
  | "idempotency_error"
  | "conflict"
  | "not_found"
  | "api_error";

const CODES = {
  invalid_json: [400, "invalid_request_error"],
  invalid_path: [400, "invalid_request_error"],
  invalid_query: [400, "invalid_request_error"],
  idempotency_key_required: [400, "idempotency_error"],
  invalid_idempotency_key: [400, "idempotency_error"],
  unsupported_media_type: [415, "invalid_request_error"],
  body_too_large: [413, "invalid_request_error"],
  missing_api_key: [401, "authentication_error"],
  invalid_api_key: [401, "authentication_error"],
  api_key_revoked: [401, "authentication_error"],
  plan_inactive: [402, "payment_required"],
  plan_limit_reached: [402, "payment_required"],
  forbidden: [403, "authentication_error"],
  insufficient_scope: [403, "authentication_error"],
  own_submission: [403, "authentication_error"],
  own_account: [403, "authentication_error"],
  account_suspended: [403, "authentication_error"],
  account_not_found: [404, "not_found"],
  record_not_found: [404, "not_found"],
  submission_not_found: [404, "not_found"],
  not_found: [404, "not_found"],
  method_not_allowed: [405, "invalid_request_error"],
  idempotency_key_in_use: [409, "idempotency_error"],
  invalid_transition: [409, "conflict"],
  suspended_by_system: [409, "conflict"],
  suspended_by_staff: [409, "conflict"],
  recheck_failed: [409, "conflict"],
  not_rechecked: [409, "conflict"],
  snapshot_unreachable: [409, "conflict"],
  review_conflict: [409, "conflict"],
  review_validity_passed: [409, "conflict"],
  review_precondition_failed: [409, "conflict"],
  second_reviewer_required: [409, "conflict"],
  name_locked: [409, "conflict"],
  lei_already_verified: [409, "conflict"],
  verification_pending: [409, "conflict"],
  verification_decided: [409, "conflict"],
  file_not_found: [404, "not_found"],
  verification_not_found: [404, "not_found"],
  file_too_large: [413, "invalid_request_error"],
  unsupported_file_type: [422, "invalid_request_error"],
  invalid_document: [422, "invalid_request_error"],
  idempotency_key_reused: [422, "idempotency_error"],
  missing_field: [422, "invalid_request_error"],
  invalid_type: [422, "invalid_request_error"],
  invalid_value: [422, "invalid_request_error"],
  invalid_format: [422, "invalid_request_error"],
  too_long: [422, "invalid_request_error"],
  too_short: [422, "invalid_request_error"],
  too_large: [422, "invalid_request_error"],
  unknown_field: [422, "invalid_request_error"],
  nesting_too_deep: [422, "invalid_request_error"],
  missing_evidence: [422, "invalid_request_error"],
  unknown_claim_type: [422, "invalid_request_error"],
  evidence_level_not_allowed: [422, "invalid_request_error"],
  invalid_superseding_record: [422, "invalid_request_error"],
  field_not_allowed: [422, "invalid_request_error"],
  invalid_domain: [422, "invalid_request_error"],
  invalid_address: [422, "invalid_request_error"],
  unsupported_address_type: [422, "invalid_request_error"],
  challenge_not_found: [422, "invalid_request_error"],
  challenge_expired: [422, "invalid_request_error"],
  challenge_used: [422, "invalid_request_error"],
  subject_mismatch: [422, "invalid_request_error"],
  dns_record_not_found: [422, "invalid_request_error"],
  invalid_lei: [422, "invalid_request_error"],
  invalid_iban: [422, "invalid_request_error"],
  lei_not_found: [422, "invalid_request_error"],
  lei_not_active: [422, "invalid_request_error"],
  transaction_not_found: [422, "invalid_request_error"],
  transaction_reverted: [422, "invalid_request_error"],
  transaction_not_confirmed: [422, "invalid_request_error"],
  transaction_mismatch: [422, "invalid_request_error"],
  invalid_signature: [422, "invalid_request_error"],
  signature_mismatch: [422, "invalid_request_error"],
  invalid_webhook_url: [422, "invalid_request_error"],
  webhook_not_found: [404, "not_found"],
  webhook_disabled: [409, "conflict"],
  event_not_found: [404, "not_found"],
  api_key_not_found: [404, "not_found"],
  checklist_incomplete: [422, "invalid_request_error"],
  recheck_not_available: [422, "invalid_request_error"],
  invalid_public_key: [422, "invalid_request_error"],
  private_key_not_accepted: [422, "invalid_request_error"],
  mandate_key_exists: [409, "conflict"],
  mandate_key_ambiguous: [409, "conflict"],
  mandate_key_not_found: [404, "not_found"],
  mandate_signature_required: [422, "invalid_request_error"],
  mandate_signature_invalid: [422, "invalid_request_error"],
  mandate_key_invalid: [422, "invalid_request_error"],
  principal_record_invalid: [422, "invalid_request_error"],
  agent_record_invalid: [422, "invalid_request_error"],
  secret_material_refused: [422, "invalid_request_error"],
  linked_record_invalid: [422, "invalid_request_error"],
  operator_not_own_organisation: [422, "invalid_request_error"],
  credentials_not_read_only: [422, "invalid_request_error"],
  credentials_invalid: [422, "invalid_request_error"],
  window_too_long: [422, "invalid_request_error"],
  trade_not_found: [422, "invalid_request_error"],
  environment_mismatch: [422, "invalid_request_error"],
  live_exchange_verification_disabled: [422, "invalid_request_error"],
  batch_too_large: [422, "invalid_request_error"],
  // Impersonation watches (lib/watches)
  watch_not_found: [404, "not_found"],
  watch_limit_reached: [422, "invalid_request_error"],
  invalid_name: [422, "invalid_request_error"],
  invalid_batch: [422, "invalid_request_error"],
  rate_limited: [429, "rate_limit_error"],
  internal_error: [500, "api_error"],
  service_unavailable: [503, "api_error"],
} as const satisfies Record<string, readonly [number, ErrorType]>;

export type ErrorCode = keyof typeof CODES;

export type FieldError = { code: ErrorCode; param?: string; message: string };

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly rows?: { index: number; errors: FieldError[] }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    [this.status, this.type] = CODES[code];
  }
  static fromField(e: FieldError): ApiError {
    return new ApiError(e.code, e.message, e.param);
  }
  /** The same error, answered with `headers` too (e.g. the RateLimit-* headers every answer of a limited endpoint carries). */
  withHeaders(headers: Record<string, string>): ApiError {
    return new ApiError(this.code, this.message, this.param, this.rows, { ...this.headers, ...headers });
  }
}

export function errorBody(err: ApiError, requestId: string) {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      ...(err.param !== undefined && { param: err.param }),
      ...(err.rows !== undefined && { rows: err.rows }),
      request_id: requestId,
    },
  };
}

export const ERROR_CODES = CODES;
