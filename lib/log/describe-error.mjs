// Plain ESM (types in describe-error.d.mts): scripts/serve.mjs, which runs without the
// app's TypeScript, describes errors the same way as the app and the worker.

/**
 * An error as it may be written to the log: what failed and where, never the values.
 *
 * drizzle wraps a failed statement in an error whose message and stack carry every bound
 * parameter (a webhook secret, a password hash, an email), and PostgreSQL's own messages
 * quote offending input ("invalid input syntax for type …: \"…\"") and its `detail` names
 * key values. So: the statement text (placeholders only), the SQLSTATE, the server's message
 * with quoted parts elided, the table/column/constraint, and our own stack frames.
 * @param {unknown} err
 * @returns {string}
 */
export function describeError(err) {
  /** @type {string[]} */
  const parts = [];
  let e = err;
  for (let depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    parts.push(describeOne(e));
    e = /** @type {{ cause?: unknown }} */ (e).cause;
  }
  return parts.join("\n  caused by: ");
}

const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
/** @param {string} s */
const elide = (s) => s.replace(QUOTED, '"…"');

/** @param {unknown} e @returns {string} */
function describeOne(e) {
  if (typeof e !== "object") return `${typeof e} thrown`;
  const o = /** @type {Record<string, unknown> & { name?: string; message?: string; stack?: string }} */ (e);
  if (typeof o.code === "string" && /^[0-9A-Z]{5}$/.test(o.code)) {
    // PostgreSQL's error (postgres-js, PGlite): SQLSTATE, message, where — not `detail`, not `parameters`
    const where = ["table_name", "column_name", "constraint_name", "routine"]
      .filter((k) => typeof o[k] === "string")
      .map((k) => `${k}=${String(o[k])}`)
      .join(" ");
    const query = typeof o.query === "string" ? ` in: ${o.query}` : "";
    return `${o.name ?? "PostgresError"} ${o.code}: ${elide(String(o.message ?? ""))}${where ? ` (${where})` : ""}${query}`;
  }
  if (typeof o.query === "string") {
    // drizzle's DrizzleQueryError: its message and stack list the parameters
    return `${o.name ?? "QueryError"}: failed query: ${o.query}${frames(o.stack)}`;
  }
  if (e instanceof Error) return `${e.name}: ${e.message}${frames(e.stack)}`;
  return "non-error value thrown";
}

/** The stack's frames without its first line (which repeats the message). */
/** @param {string | undefined} stack */
function frames(stack) {
  if (!stack) return "";
  const lines = stack.split("\n").filter((l) => /^\s+at /.test(l));
  return lines.length ? `\n${lines.slice(0, 8).join("\n")}` : "";
}
