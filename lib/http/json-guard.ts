import type { FieldError } from "./errors";
import { paramPath } from "./validation";

/** Deeper than any request of the API needs; bounds the work of canonicalising and storing evidence. */
export const MAX_JSON_DEPTH = 32;

const NUL = "\u0000";
/** With the `u` flag a well-formed pair is one code point, so this matches only lone surrogates. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Checks every key and string of a parsed JSON body before anything reads it, iteratively
 * (no recursion, so no stack to exhaust): nesting at most MAX_JSON_DEPTH, no `__proto__`
 * key at any depth (a plain object parse drops it silently), no NUL (PostgreSQL text and
 * jsonb cannot hold it), no lone surrogate (not Unicode; not storable as UTF-8) and no number
 * JSON.parse made infinite (`1e999`: not JSON once parsed, so no canonical form or hash).
 * Returns the first problem, or null.
 */
export function checkJsonInput(root: unknown, prefix = ""): FieldError | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    const at = () => paramPath(path, prefix);
    if (typeof value === "string") {
      const bad = badText(value);
      if (bad) return { code: "invalid_value", param: at(), message: `'${at()}' ${bad}` };
      continue;
    }
    if (typeof value === "number" && !Number.isFinite(value)) {
      return { code: "invalid_value", param: at(), message: `'${at()}' is a number too large to hold.` };
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_JSON_DEPTH) {
      return {
        code: "nesting_too_deep", param: paramPath(path.slice(0, 1), prefix),
        message: `'${paramPath(path.slice(0, 1), prefix)}' is nested more than ${MAX_JSON_DEPTH} levels deep.`,
      };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
      continue;
    }
    const children: { value: unknown; path: (string | number)[] }[] = [];
    for (const [k, v] of Object.entries(value)) {
      const keyPath = paramPath([...path, k], prefix);
      if (k === "__proto__") return { code: "unknown_field", param: keyPath, message: `Unknown field '${keyPath}'.` };
      const bad = badText(k);
      if (bad) return { code: "invalid_value", param: paramPath(path, prefix) || undefined, message: `A field name ${bad}` };
      children.push({ value: v, path: [...path, k] });
    }
    stack.push(...children.reverse()); // first field first
  }
  return null;
}

function badText(s: string): string | null {
  if (s.includes(NUL)) return "must not contain the NUL character (U+0000).";
  if (LONE_SURROGATE.test(s)) return "is not well-formed Unicode (it contains a lone surrogate).";
  return null;
}
