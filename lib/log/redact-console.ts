import { describeError } from "./describe-error";

const g = globalThis as unknown as { __prsConsoleRedacted?: boolean };

/**
 * Route every error object that reaches console.error/console.warn — ours, Next's own report
 * of a failed server action or page, a library's — through `describeError`, so a failed
 * query's bound values (secrets, hashes, emails) never reach the log, whoever logs it.
 */
export function redactConsoleErrors() {
  if (g.__prsConsoleRedacted) return;
  g.__prsConsoleRedacted = true;
  for (const level of ["error", "warn"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) =>
      original(...args.map((a) => (a instanceof Error || (a !== null && typeof a === "object" && "query" in a) ? describeError(a) : a)));
  }
}
