import { ApiError, type FieldError } from "@/lib/http/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { validateRecordInput } from "./create-record";
import type { ClaimRequest } from "@/lib/claims/types";
import { BATCH_MAX_RECORDS, batchEnvelopeSchema } from "@/lib/record-model/schemas";

export type RowErrors = { index: number; errors: FieldError[] };

/**
 * A batch body checked completely before anything is issued: the envelope (`{"records": [...]}`,
 * nothing else), the row count (1..250, the count before the rows), then every row exactly as
 * POST /api/v1/records checks it, collecting each invalid row's first problem. Any invalid row
 * → 422 `invalid_batch` with `error.rows`, params written `records[i].field`.
 */
export function validateBatchInput(raw: unknown): ClaimRequest[] {
  const { records } = parseOrThrow(batchEnvelopeSchema, raw);
  if (records.length === 0) throw new ApiError("too_short", "'records' must hold at least one record.", "records");
  if (records.length > BATCH_MAX_RECORDS) {
    throw new ApiError(
      "batch_too_large",
      `A batch holds at most ${BATCH_MAX_RECORDS} records; this one has ${records.length}. Split it into several batches.`,
      "records",
    );
  }
  const inputs: ClaimRequest[] = [];
  const invalid: RowErrors[] = [];
  records.forEach((row, index) => {
    try {
      inputs.push(validateRecordInput(row, `records[${index}]`));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      invalid.push({ index, errors: [{ code: err.code, ...(err.param !== undefined && { param: err.param }), message: err.message }] });
    }
  });
  if (invalid.length > 0) {
    const what = invalid.length === 1 ? "1 record is" : `${invalid.length} records are`;
    throw new ApiError("invalid_batch", `${what} invalid (of ${records.length}); nothing was issued. See error.rows.`, undefined, invalid);
  }
  return inputs;
}
