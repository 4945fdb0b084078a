import type { RecordStatus } from "@/drizzle/schema";
import { effectiveStatus, isIssued } from "./effective-status";

/** A history entry as far as a status at an instant needs it. */
export type StatusEntry = { status: RecordStatus; at: Date };
type Row = { status: RecordStatus; statusChangedAt: Date; expiresAt: Date | null };

/**
 * The history entry in force at `atMs`: of those at or before it, the one with the latest
 * `at`, and of entries at the same instant the one written last. (The database finds the
 * same entry by index: `WHERE at <= $at ORDER BY at DESC, seq DESC LIMIT 1`, history-page.ts.)
 * `history` is in the order it was written.
 */
function entryAt<E extends StatusEntry>(history: readonly E[], atMs: number): E | undefined {
  let last: E | undefined;
  for (const h of history) if (h.at.getTime() <= atMs && (!last || h.at.getTime() >= last.at.getTime())) last = h;
  return last;
}

/**
 * A record as it stood at `atMs`: its stored row with the status and change time of its
 * history entry then. What never changes after issue (subject, claim, evidence, level,
 * issued_at, expires_at) is the row's; an expiry passed by `atMs` is left to the reader
 * (effectiveStatus), as for the status now. A record with no entry yet reads as pending_review.
 */
export function asOf<T extends Pick<Row, "status" | "statusChangedAt">>(row: T, history: readonly StatusEntry[], atMs: number): T {
  const e = entryAt(history, atMs);
  return { ...row, status: e?.status ?? "pending_review", statusChangedAt: e?.at ?? row.statusChangedAt };
}

/**
 * The status a record had at `atMs`, as its public view would have shown it then: its
 * history entry then, read as expired once its `expires_at` had passed. Null when it had
 * not been issued yet (no entry by then, or only its submission).
 */
export function issuedStatusAt(row: Row, history: readonly StatusEntry[], atMs: number): RecordStatus | null {
  const then = asOf(row, history, atMs);
  return isIssued(then.status) ? effectiveStatus(then, atMs).status : null;
}
