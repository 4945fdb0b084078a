import {
  AUTH_CODES, BODY_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, recordIdParam, ref, VALIDATION_CODES, type Paths,
} from "../shared";

/** Moves of an issued record between statuses. */
export function lifecyclePaths(): Paths {
  return {
    "/api/v1/records/{id}/lifecycle": {
      post: {
        operationId: "changeRecordLifecycle",
        tags: ["Records"],
        summary: "Suspend, reinstate, revoke, expire or supersede a record",
        description:
          "Moves an issued record: active → suspended | revoked | expired | superseded; suspended → active (reinstate) | " +
          "revoked | expired | superseded. Any other move is 409 `invalid_transition`. `supersede` needs `superseded_by`. " +
          "Every move is appended to the record's history and announced as record.status_changed. Body at most 16 KiB.",
        security: bearer,
        parameters: [recordIdParam],
        requestBody: { required: true, content: { "application/json": { schema: ref("LifecycleRequest") } } },
        responses: {
          "200": jsonResponse("The updated record.", ref("Record")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, "record_not_found", "invalid_transition",
            ...VALIDATION_CODES, "field_not_allowed", "invalid_superseding_record", ...OTHER_METHODS,
          ]),
        },
      },
    },
  };
}
