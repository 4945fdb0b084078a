import type { RecordStatus } from "@/drizzle/schema";

type Row = { status: RecordStatus; expiresAt: Date | null; statusChangedAt: Date };

/** A record past its expires_at reads as expired at once, before the sweep persists it. */
export function effectiveStatus(row: Row, now = Date.now()): { status: RecordStatus; changedAt: Date } {
  if ((row.status === "active" || row.status === "suspended") && row.expiresAt && row.expiresAt.getTime() <= now) {
    return { status: "expired", changedAt: row.expiresAt };
  }
  return { status: row.status, changedAt: row.statusChangedAt };
}

export const isIssued = (s: RecordStatus) => s !== "pending_review" && s !== "rejected";
