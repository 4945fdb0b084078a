import type { ClaimTypeDocs } from "../claim-type-docs";
import { bearer, CREATE_CODES, errorResponses, idempotencyKeyParam, jsonResponse, OTHER_METHODS, ref, type Paths } from "../shared";

/** Many records in one request, under one Idempotency-Key. */
export function batchPaths(claims: ClaimTypeDocs): Paths {
  return {
    "/api/v1/records/batch": {
      post: {
        operationId: "createRecordBatch",
        tags: ["Records"],
        summary: "Create up to 250 records at once",
        description:
          "`{\"records\": [...]}` with 1-250 rows, each exactly what POST /api/v1/records takes. Every row is validated before " +
          "anything is issued: any invalid row is 422 `invalid_batch` with `error.rows: [{index, errors: [{code, param, message}]}]` " +
          "(each invalid row's first problem, `param` written `records[i].field`) and nothing is issued; more than 250 rows is " +
          "422 `batch_too_large`. Otherwise each row's claim check runs and every row that passes is written in one transaction: " +
          "a row whose check refuses it (e.g. `dns_record_not_found`, `signature_mismatch`, `challenge_used`) is `failed` with " +
          "its error and the others still issue (or go to review). Live rows are metered together: if the allowance does not " +
          "cover every live row to issue, the batch is 402 `plan_limit_reached` and nothing is issued. The answer is 200 with " +
          "one result per row, in request order. One Idempotency-Key covers the batch: replaying it with the same body returns " +
          "the same batch (same batch_id and verification ids) with `Idempotent-Replayed: true`, every row that created a " +
          "record now `existing` (failed rows stay failed), and creates nothing. Body at most 4 MiB.",
        security: bearer,
        parameters: [idempotencyKeyParam],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: ref("BatchCreate"),
              examples: {
                mixed: {
                  summary: "One record of each claim type whose check needs no outside source",
                  value: { records: claims.offlineExamples },
                },
              },
            },
          },
        },
        responses: {
          "200": jsonResponse("The batch: totals and one result per row. Also the answer to a replay.", ref("Batch"), {
            headers: {
              "Idempotent-Replayed": {
                description: "Present (`true`) when this is a replay of the batch's Idempotency-Key.",
                schema: { type: "string", const: "true" },
              },
            },
          }),
          ...errorResponses([...CREATE_CODES, "batch_too_large", "invalid_batch", ...OTHER_METHODS]),
        },
      },
    },
  };
}
