/**
 * An error answer from the API (or, as PrsConnectionError, no answer at all). Branch on
 * `code` (stable snake_case); `message` is for people and may change.
 */
export class PrsError extends Error {
    status;
    type;
    code;
    param;
    request_id;
    rows;
    retry_after;
    attempts;
    constructor(init) {
        super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
        this.name = new.target.name;
        this.status = init.status;
        this.type = init.type;
        this.code = init.code;
        this.param = init.param;
        this.request_id = init.request_id;
        this.rows = init.rows;
        this.retry_after = init.retry_after;
        this.attempts = init.attempts ?? 1;
    }
}
/** 400/404/405/413/415/422: the request is wrong; fix it (see `code` and `param`). */
export class InvalidRequestError extends PrsError {
}
/** 401: missing, malformed, unknown or revoked API key. */
export class AuthenticationError extends PrsError {
}
/** 402: no active plan, or the plan's allowance is used up. */
export class PaymentRequiredError extends PrsError {
}
/** 429: too many requests; `retry_after` says how long to wait. */
export class RateLimitError extends PrsError {
}
/** 400/409/422 about the Idempotency-Key. */
export class IdempotencyError extends PrsError {
}
/** 409: the operation conflicts with the current state (e.g. invalid_transition). */
export class ConflictError extends PrsError {
}
/** 404: no such record, webhook or key for this API key. */
export class NotFoundError extends PrsError {
}
/** 5xx: a fault on the service's side. */
export class ApiError extends PrsError {
}
/** No answer: the connection failed or timed out (status 0, type "connection_error"). */
export class PrsConnectionError extends PrsError {
}
const BY_TYPE = {
    invalid_request_error: InvalidRequestError,
    authentication_error: AuthenticationError,
    payment_required: PaymentRequiredError,
    rate_limit_error: RateLimitError,
    idempotency_error: IdempotencyError,
    conflict: ConflictError,
    not_found: NotFoundError,
    api_error: ApiError,
};
/** The type an answer without an envelope (a proxy's 502, a bare 405) is given, by its status. */
function typeForStatus(status) {
    if (status === 401)
        return "authentication_error";
    if (status === 402)
        return "payment_required";
    if (status === 404)
        return "not_found";
    if (status === 409)
        return "conflict";
    if (status === 429)
        return "rate_limit_error";
    if (status >= 500)
        return "api_error";
    return "invalid_request_error";
}
function isErrorBody(v) {
    const e = v?.error;
    return !!e && typeof e === "object" && typeof e.type === "string" && typeof e.code === "string" && typeof e.message === "string";
}
/** The PrsError for an error answer: its envelope if it has one, else one made from its status. */
export function errorFromResponse(status, headers, body, extra = {}) {
    const request_id = headers.get("request-id") ?? undefined;
    if (isErrorBody(body)) {
        const e = body.error;
        const Class = BY_TYPE[e.type] ?? PrsError;
        return new Class({
            status, type: e.type, code: e.code, message: e.message, param: e.param ?? undefined, request_id: e.request_id ?? request_id, rows: e.rows, ...extra,
        });
    }
    const type = typeForStatus(status);
    const Class = BY_TYPE[type] ?? PrsError;
    return new Class({ status, type, code: `http_${status}`, message: `HTTP ${status} without an error envelope`, request_id, ...extra });
}
