import type { ClaimTypeDocs } from "../claim-type-docs";
import {
  AUTH_CODES, bearer, CREATE_CODES, errorResponses, idempotencyKeyParam, jsonResponse, OTHER_METHODS, recordIdParam, ref, VALIDATION_CODES,
  type JsonSchema, type Paths,
} from "../shared";

/** Create, list and read records with an API key. */
export function recordPaths(claims: ClaimTypeDocs, listParameters: JsonSchema[]): Paths {
  return {
    "/api/v1/records": {
      post: {
        operationId: "createRecord",
        tags: ["Records"],
        summary: "Create a record",
        description:
          "Issues a record (201), or accepts it for human review (202, status pending_review, URLs and integrity null until issued). " +
          "Requires an Idempotency-Key: the same key with the same body returns the original answer with HTTP 200 and " +
          "`Idempotent-Replayed: true`; with a different body it is 422 `idempotency_key_reused`; while the first request " +
          "runs it is 409 `idempotency_key_in_use`. Unknown fields are rejected. Body at most 256 KiB, evidence at most 32 KiB.\n\n" +
          "The `evidence` object depends on `claim_type`. " + claims.describe,
        security: bearer,
        parameters: [idempotencyKeyParam],
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref("RecordCreate"), examples: claims.examples } },
        },
        responses: {
          "200": jsonResponse("Idempotent replay: the original answer (of a 201 or a 202).", ref("Record"), {
            headers: { "Idempotent-Replayed": { $ref: "#/components/headers/Idempotent-Replayed" } },
          }),
          "201": jsonResponse("Issued.", ref("Record")),
          "202": jsonResponse("Accepted for review: status pending_review; the same id is issued once a reviewer confirms.", ref("Record")),
          ...errorResponses([...CREATE_CODES, "unknown_claim_type", ...claims.errors, ...OTHER_METHODS]),
        },
      },
      get: {
        operationId: "listRecords",
        tags: ["Records"],
        summary: "List records",
        description:
          "The key's account and environment only, newest first. Cursor pagination: pass the last verification_id as " +
          "`starting_after` while `has_more` is true. Unknown query parameters are rejected with 422.",
        security: bearer,
        parameters: listParameters,
        responses: {
          "200": jsonResponse("A page of records.", ref("RecordList")),
          ...errorResponses([...AUTH_CODES, ...VALIDATION_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/records/{id}": {
      get: {
        operationId: "getRecord",
        tags: ["Records"],
        summary: "Retrieve a record",
        description: "The owner's view of a record, including pending and rejected submissions. Another account's or environment's record is 404.",
        security: bearer,
        parameters: [recordIdParam],
        responses: {
          "200": jsonResponse("The record.", ref("Record")),
          ...errorResponses([...AUTH_CODES, "record_not_found", ...OTHER_METHODS]),
        },
      },
    },
  };
}
