import { ERROR_CODES, type ErrorCode } from "@/lib/http/errors";

/** The helpers every group of operations (lib/openapi/operations/) builds its answers with. */

export type JsonSchema = { [key: string]: unknown };
export type Operation = { [key: string]: unknown; responses: Record<string, unknown> };
export type PathItem = Partial<Record<"get" | "post" | "patch" | "delete", Operation>>;
export type Paths = Record<string, PathItem>;

export const schemaRef = (id: string) => `#/components/schemas/${id}`;
export const ref = (id: string) => ({ $ref: schemaRef(id) });

export const bearer = [{ bearerAuth: [] as string[] }];
export const publicAccess: never[] = [];

const REQUEST_ID = { $ref: "#/components/headers/Request-Id" };
const CORS = { $ref: "#/components/headers/Access-Control-Allow-Origin" };
/** The headers of every answer of a public (keyless, CORS-enabled) endpoint. */
export const publicHeaders = { "Access-Control-Allow-Origin": CORS };
export const recordIdParam = { $ref: "#/components/parameters/RecordId" };
export const idempotencyKeyParam = { $ref: "#/components/parameters/Idempotency-Key" };

type ResponseOpts = { headers?: Record<string, unknown>; requestId?: boolean };

export function jsonResponse(description: string, schema: JsonSchema, opts: ResponseOpts = {}) {
  return {
    description,
    headers: { ...(opts.requestId === false ? {} : { "Request-Id": REQUEST_ID }), ...opts.headers },
    content: { "application/json": { schema } },
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Missing, malformed, unknown or revoked API key",
  402: "Payment required: no active plan, or the plan's monthly allowance is used up",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed: this path answers other methods than the documented ones with 405 and an `Allow` header",
  409: "Conflict",
  413: "Request body too large",
  415: "Body is not JSON (send Content-Type: application/json)",
  422: "Invalid input; `param` names the field",
  429: "Too many requests from this client address; wait the seconds `Retry-After` gives",
  500: "Internal error; it is logged and its details are never echoed",
};

/** Error responses grouped by the status the error table assigns to each code. */
export function errorResponses(codes: readonly ErrorCode[], opts: ResponseOpts = {}) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set<ErrorCode>([...codes, "internal_error"])) {
    const status = ERROR_CODES[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const text = STATUS_TEXT[status] ?? "Error";
    // otherMethods() answers without the endpoint's CORS headers, with Allow.
    const statusOpts = status === 405 ? { ...opts, headers: { Allow: { $ref: "#/components/headers/Allow" } } } : opts;
    out[String(status)] = jsonResponse(`${text}. error.code: ${list.map((c) => `\`${c}\``).join(", ")}.`, ref("Error"), statusOpts);
  }
  return out;
}

export const AUTH_CODES = ["missing_api_key", "invalid_api_key", "api_key_revoked", "insufficient_scope"] as const satisfies readonly ErrorCode[];
/** What parseOrThrow (lib/http/validation.ts) can answer for a zod schema. */
export const VALIDATION_CODES = [
  "missing_field", "invalid_type", "invalid_value", "invalid_format", "too_long", "too_short", "too_large", "unknown_field",
] as const satisfies readonly ErrorCode[];
/**
 * readJsonObject (lib/http/body.ts): media type, size, JSON syntax; a non-object body is
 * invalid_type; checkJsonInput: nesting (nesting_too_deep), NUL and lone surrogates
 * (invalid_value), `__proto__` keys (unknown_field).
 */
export const BODY_CODES = [
  "unsupported_media_type", "body_too_large", "invalid_json", "invalid_type", "nesting_too_deep", "invalid_value", "unknown_field",
] as const satisfies readonly ErrorCode[];
/**
 * Routes that export otherMethods() (lib/http/handler.ts) answer the methods they do not
 * serve with 405 in the envelope; their operations list it. (The health checks and the
 * JWKS leave unsupported methods to Next, whose bare 405 is not documented.)
 */
export const OTHER_METHODS = ["method_not_allowed"] as const satisfies readonly ErrorCode[];
/** What every create answers before its own checks: key, body, plan and idempotency. */
export const CREATE_CODES = [
  "idempotency_key_required", "invalid_idempotency_key", ...BODY_CODES, ...AUTH_CODES,
  "plan_inactive", "plan_limit_reached", "idempotency_key_in_use", "idempotency_key_reused", ...VALIDATION_CODES,
] as const satisfies readonly ErrorCode[];
