import type { FieldError } from "@/lib/http/errors";
import type { RecordStatus } from "@/drizzle/schema";

export type BatchOutcome = "issued" | "existing" | "pending_review" | "failed";

/** One row of a batch answer. Failed rows carry `error` and no id; the others an id and no error. */
export type BatchRowResult = {
  index: number;
  outcome: BatchOutcome;
  verification_id?: string;
  status?: RecordStatus;
  certificate_url?: string | null;
  error?: FieldError;
};

export type BatchAnswer = {
  object: "batch";
  batch_id: string;
  totals: Record<BatchOutcome, number>;
  results: BatchRowResult[];
};

/** The answer to a batch: its rows in request order, and how many rows ended in each outcome. */
export function batchAnswer(batchId: string, results: BatchRowResult[]): BatchAnswer {
  const totals: Record<BatchOutcome, number> = { issued: 0, existing: 0, pending_review: 0, failed: 0 };
  for (const r of results) totals[r.outcome]++;
  return { object: "batch", batch_id: batchId, totals, results };
}

/**
 * A replay of a batch's key: the same batch (id, rows, verification ids), with every row that
 * created a record now `existing` — the replay created nothing — and failed rows still failed.
 */
export function replayedBatch(storedJson: string): BatchAnswer {
  const stored = JSON.parse(storedJson) as BatchAnswer;
  const results = stored.results.map((r) => (r.outcome === "failed" ? r : { ...r, outcome: "existing" as const }));
  return batchAnswer(stored.batch_id, results);
}
