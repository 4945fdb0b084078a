import { ref, type JsonSchema } from "./shared";

/** The parameters and headers the operations point at with `$ref` (lib/openapi/shared.ts). */
export function reusableComponents(): { parameters: Record<string, JsonSchema>; headers: Record<string, JsonSchema> } {
  return {
    parameters: {
      "Idempotency-Key": {
        name: "Idempotency-Key",
        in: "header",
        required: true,
        description:
          "Unique key for this creation, 1-255 printable ASCII characters without spaces. Scoped to account, " +
          "environment and endpoint; kept at least 24 h.",
        schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
      },
      RecordId: {
        name: "id",
        in: "path",
        required: true,
        description: "The record's verification_id.",
        schema: ref("RecordId"),
      },
    },
    headers: {
      "Request-Id": {
        description: "Identifies this request; quote it when reporting a problem. Errors repeat it as error.request_id.",
        schema: { type: "string", pattern: "^req_[0-9a-z]{20}$" },
      },
      "Idempotent-Replayed": {
        description: "Present on a replayed answer: the response is the stored result of the first request with this key.",
        required: true,
        schema: { type: "string", const: "true" },
      },
      "Access-Control-Allow-Origin": {
        description: "Public endpoints may be called from any origin.",
        schema: { type: "string", const: "*" },
      },
      "RateLimit-Limit": {
        description: "Requests allowed per window (a minute) from this client address.",
        required: true,
        schema: { type: "integer", minimum: 1 },
      },
      "RateLimit-Remaining": {
        description: "Requests left in the current window.",
        required: true,
        schema: { type: "integer", minimum: 0 },
      },
      "RateLimit-Reset": {
        description: "Seconds until the current window ends and the allowance is whole again.",
        required: true,
        schema: { type: "integer", minimum: 1 },
      },
      "Retry-After": {
        description: "Seconds to wait before the next request is allowed.",
        required: true,
        schema: { type: "integer", minimum: 1 },
      },
      Allow: {
        description: "The methods this path serves, comma-separated (e.g. `GET, POST`).",
        required: true,
        schema: { type: "string" },
      },
    },
  };
}
