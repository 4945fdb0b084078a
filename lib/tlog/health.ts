/**
 * Whether this process stopped integrating the transparency log because the stored log
 * disagrees with itself (store.ts, LogConflict). Readiness and the metrics report it until an
 * operator has looked: the process is restarted after the cause is found (docs/operations.md).
 */
const g = globalThis as unknown as { __prsLogConflict?: string };

export const logConflict = (): string | null => g.__prsLogConflict ?? null;

export function noteLogConflict(message: string) {
  g.__prsLogConflict = message;
}
