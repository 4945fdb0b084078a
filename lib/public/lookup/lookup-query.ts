import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import { detect, LOOKUP_KINDS, normalizeAs, type LookupKind, type LookupValue } from "@/lib/format/normalize";

/** The query of GET /api/v1/lookup, as a client sends it: what the handler validates with and the OpenAPI document lists. */
export const lookupQuerySchema = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .regex(noControl, NO_CONTROL)
    .regex(noHiddenText, NO_HIDDEN)
    .describe("The value to look up: an IBAN, a wallet address, a website, a listing link, a licence number or a handle (at most 500 characters)."),
  type: z
    .enum(LOOKUP_KINDS)
    .optional()
    .describe("What `q` is, when you know: skips the detection by shape. Absent: the shape of `q` decides, and a bare token is tried as a licence number and as a handle."),
});

/** A parsed lookup: the query as given, and the values to try, in order. */
export type LookupRequest = { query: string; candidates: LookupValue[] };

/**
 * Read `?q=&type=` (CONTRACT "Lookup"). Refused with 422: a missing or empty `q`
 * (missing_field), one over 500 characters (too_long), control, bidirectional or zero-width
 * characters (invalid_format), bytes that are not UTF-8, which reach the handler as U+FFFD
 * (invalid_value), a parameter given twice (invalid_format) or unknown (unknown_field), an
 * unknown `type` (invalid_value), and a `q` that is not a value of its kind (its kind's
 * code, `param: "q"`).
 */
export function lookupRequestFrom(url: URL): LookupRequest {
  for (const name of new Set(url.searchParams.keys())) {
    if (url.searchParams.getAll(name).length > 1) throw new ApiError("invalid_format", `'${name.slice(0, 40)}' must be given once.`, name.slice(0, 40));
  }
  if (url.searchParams.get("q")?.includes("\uFFFD")) {
    throw new ApiError("invalid_value", "'q' is not valid percent-encoded UTF-8 (or holds U+FFFD, the replacement character).", "q");
  }
  const raw = url.searchParams.get("q");
  const input = parseOrThrow(lookupQuerySchema, Object.fromEntries(url.searchParams));
  const found = input.type ? one(input.type, input.q) : detect(input.q);
  if ("error" in found) throw new ApiError(found.error.code, found.error.message, "q");
  return { query: raw ?? input.q, candidates: found.candidates };
}

function one(kind: LookupKind, q: string): { candidates: LookupValue[] } | { error: { code: ApiError["code"]; message: string } } {
  const n = normalizeAs(kind, q);
  return "error" in n ? n : { candidates: [{ kind, value: n.value }] };
}
