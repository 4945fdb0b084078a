import { errorResponses, jsonResponse, OTHER_METHODS, publicAccess, publicHeaders, ref, type JsonSchema, type Paths } from "../shared";

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** Every answer of a rate-limited endpoint, errors included. */
const rateLimitHeaders = {
  ...publicHeaders, "RateLimit-Limit": header("RateLimit-Limit"), "RateLimit-Remaining": header("RateLimit-Remaining"),
  "RateLimit-Reset": header("RateLimit-Reset"),
};

/** The public lookup: its query parameters come from lookupQuerySchema (schema-components.ts). */
export function lookupPaths(parameters: JsonSchema[], checkParameters: JsonSchema[]): Paths {
  const codes = ["missing_field", "too_long", "invalid_format", "invalid_value", "unknown_field", "invalid_iban", "invalid_address", "invalid_domain"] as const;
  const errors = errorResponses([...codes, "rate_limited", ...OTHER_METHODS], { headers: rateLimitHeaders });
  // Past the allowance: Retry-After as well. A 500 is answered before the limit's headers are added.
  errors["429"] = jsonResponse("Too many requests from this client address. error.code: `rate_limited`.", ref("Error"), {
    headers: { ...rateLimitHeaders, "Retry-After": header("Retry-After") },
  });
  errors["500"] = errorResponses([], { headers: publicHeaders })["500"];
  return {
    "/api/v1/lookup": {
      get: {
        operationId: "lookup",
        tags: ["Public"],
        summary: "Look up an IBAN, wallet, website, listing link, licence number or handle",
        description:
          "Public, no key, free and never metered. Is this value on record, and for whom? An exact match, after normalisation, " +
          "against live, public, active records only — never sandbox, private, pending, suspended, revoked, expired or superseded " +
          "ones. `type` skips the detection by shape; without it an IBAN with valid check digits, a wallet address, a web address " +
          "(with a path or query: a listing link; without: a website), `@handle` or a profile URL is recognised, and a bare " +
          "token is tried as a licence number and as a handle. The answer is signed like the signed status (drop `signature`, " +
          "RFC 8785, Ed25519 with the JWKS key `signing_key_id`), a `no_match` too, and never cached.\n\n" +
          "Rate limited per client address (30 a minute by default): every answer carries `RateLimit-Limit`, " +
          "`RateLimit-Remaining` and `RateLimit-Reset`; past the limit, 429 `rate_limited` with `Retry-After`.",
        security: publicAccess,
        parameters,
        responses: {
          "200": jsonResponse("The signed answer.", ref("LookupAnswer"), {
            headers: { ...rateLimitHeaders, "Cache-Control": { schema: { type: "string", const: "no-store" } } },
          }),
          ...errors,
        },
      },
    },
    "/api/v1/check": {
      get: {
        operationId: "check",
        tags: ["Public"],
        summary: "Check an operator, website and payee together",
        description:
          "Public, no key, free, under the same rate limit as lookup. Give any of `operator`, `website` and `payee` (an IBAN or a " +
          "wallet address). Each part gets a verdict: `match` (on record for this operator — or, with no operator, on record), " +
          "`mismatch` (on record for ANOTHER operator, named in `on_record_for`) or `not_on_record`, with the evidence level, the " +
          "record and `as_of`. Only live, public, active records count; a participant_attested match is the account's own word, " +
          "never verified. Signed like the lookup answer; never cached.",
        security: publicAccess,
        parameters: checkParameters,
        responses: {
          "200": jsonResponse("The signed answer.", ref("CheckAnswer"), {
            headers: { ...rateLimitHeaders, "Cache-Control": { schema: { type: "string", const: "no-store" } } },
          }),
          ...errors,
        },
      },
    },
  };
}
