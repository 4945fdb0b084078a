import { ApiError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { checkQuerySchema, type CheckQuery } from "./answer-check";

/** Read `?operator=&website=&payee=` for the API: each at most once, at least one of them. */
export function checkQueryFrom(url: URL): CheckQuery {
  for (const name of new Set(url.searchParams.keys())) {
    if (url.searchParams.getAll(name).length > 1) throw new ApiError("invalid_format", `'${name.slice(0, 40)}' must be given once.`, name.slice(0, 40));
  }
  const q = parseOrThrow(checkQuerySchema, Object.fromEntries(url.searchParams));
  if (!q.operator && !q.website && !q.payee) {
    throw new ApiError("missing_field", "Give at least one of 'operator', 'website' and 'payee'.", "operator");
  }
  return q;
}
