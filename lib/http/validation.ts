import type { z } from "zod";
import { ApiError, type FieldError } from "./errors";

/** What every timestamp the API takes must look like (zod's `z.iso.datetime({ offset: true })`). */
export const DATETIME_FORMAT = "must be an RFC 3339 timestamp with a time zone, such as 2026-01-31T12:00:00Z or 2026-01-31T14:00:00+02:00.";

/** `evidence.lei`, `records[3].claim` — the path as a client would write it. */
export function paramPath(path: readonly PropertyKey[], prefix = ""): string {
  let out = prefix;
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input;
  for (const p of path) {
    if (cur === null || typeof cur !== "object" || !Object.prototype.hasOwnProperty.call(cur, p)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

/** Turn zod issues into stable field errors, most useful first. */
export function fieldErrors(error: z.ZodError, input: unknown, prefix = ""): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const at = paramPath(issue.path, prefix);
    switch (issue.code) {
      case "unrecognized_keys":
        for (const k of issue.keys) {
          const param = at ? `${at}.${k}` : k;
          out.push({ code: "unknown_field", param, message: `Unknown field '${param}'.` });
        }
        break;
      case "invalid_type": {
        const missing = valueAt(input, issue.path) === undefined;
        out.push(
          missing
            ? { code: "missing_field", param: at, message: `'${at}' is required.` }
            : { code: "invalid_type", param: at, message: `'${at}' must be of type ${issue.expected}.` },
        );
        break;
      }
      case "too_big":
        out.push({
          code: issue.origin === "string" || issue.origin === "array" ? "too_long" : "too_large",
          param: at,
          message: `'${at}' ${issue.message.replace(/^Too big: expected \S+ to /, "must ")}`,
        });
        break;
      case "too_small":
        out.push({
          code: issue.origin === "string" && issue.minimum === 1 ? "missing_field" : "too_short",
          param: at,
          message:
            issue.origin === "string" && issue.minimum === 1
              ? `'${at}' must not be empty.`
              : `'${at}' ${issue.message.replace(/^Too small: expected \S+ to /, "must ")}`,
        });
        break;
      case "invalid_value":
        out.push({
          code: "invalid_value",
          param: at,
          message: `'${at}' must be one of: ${issue.values.map(String).join(", ")}.`,
        });
        break;
      case "invalid_format":
        out.push({
          code: "invalid_format",
          param: at,
          // Patterns carry their own explanation (set where the schema is defined).
          message:
            issue.format === "regex" ? `'${at}' ${issue.message}`
            : issue.format === "datetime" ? `'${at}' ${DATETIME_FORMAT}`
            : `'${at}' is not a valid ${issue.format}.`,
        });
        break;
      default:
        out.push({ code: "invalid_value", param: at, message: `'${at}': ${issue.message}` });
    }
  }
  return out;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix = ""): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const [first] = fieldErrors(r.error, input, prefix);
  throw ApiError.fromField(first ?? { code: "invalid_value", message: "Invalid request." });
}
