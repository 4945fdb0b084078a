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
          "Every move is appended to the record's history and announced as record.status_changed. A suspension made by the " +
          "system (a re-check found the evidence gone, or a record it rests on stopped being active) or by Proof Records staff is " +
          "lifted only by the system or staff: the owner's `reinstate` is 409 `suspended_by_system` / `suspended_by_staff`. A record " +
          "that rests on others (verified_listing) is not reinstated while one of them is not active (409 `invalid_transition`, naming " +
          "the part). A `reinstate` of a record whose re-check is due (or overdue) runs the re-check first — a suspended record's " +
          "re-check is never postponed — and is 409 `recheck_failed`, naming what failed, when the evidence no longer stands or its " +
          "source cannot be reached (the record stays suspended). A record's owner may change its status `LIFECYCLE_CHANGES_PER_HOUR` (20) times an hour; past that, 429 " +
          "`rate_limited` with `Retry-After` (the history is public and read with the record). Body at most 16 KiB.",
        security: bearer,
        parameters: [recordIdParam],
        requestBody: { required: true, content: { "application/json": { schema: ref("LifecycleRequest") } } },
        responses: {
          "200": jsonResponse("The updated record.", ref("Record")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, "record_not_found", "invalid_transition", "suspended_by_system", "suspended_by_staff", "recheck_failed",
            ...VALIDATION_CODES, "field_not_allowed", "invalid_superseding_record", "rate_limited", ...OTHER_METHODS,
          ]),
          "429": jsonResponse("This record's status was changed too often within the hour. error.code: `rate_limited`.", ref("Error"), {
            headers: { "Retry-After": { $ref: "#/components/headers/Retry-After" } },
          }),
        },
      },
    },
    "/api/v1/records/{id}/evidence": {
      post: {
        operationId: "refreshRecordEvidence",
        tags: ["Records"],
        summary: "Refresh a pending submission's evidence without submitting again",
        description:
          "Only for a submission still waiting for a reviewer, of a claim type that takes it (dex_control: `{evidence: {challenge_id, " +
          "signature}}` of a new wallet challenge for the same wallet, asked with claim_type dex_control; its domain record is " +
          "checked again). The evidence is checked as at submission and replaces the old, with a new `checked_at`: a reviewer can " +
          "then approve within the type's time limit (24 h for dex_control). Any other record is 409 `invalid_transition`. Body at most 16 KiB.",
        security: bearer,
        parameters: [recordIdParam],
        requestBody: { required: true, content: { "application/json": { schema: ref("EvidenceRefresh") } } },
        responses: {
          "200": jsonResponse("The submission, still pending, with its fresh evidence.", ref("Record")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, "record_not_found", "invalid_transition", ...VALIDATION_CODES,
            "challenge_not_found", "challenge_expired", "challenge_used", "signature_mismatch", "invalid_signature", "linked_record_invalid", ...OTHER_METHODS,
          ]),
        },
      },
    },
    "/api/v1/records/{id}/principal": {
      patch: {
        operationId: "changeRecordPrincipal",
        tags: ["Records"],
        summary: "Link an agent authorization to its principal's company record, or unlink it",
        description:
          "Only for agent_authorization records. `principal_record_id` must name a public, active company_identity record of this " +
          "account at source_verified or evidence_verified (a live agent cannot rest on a sandbox record), or be null to unlink. " +
          "A change is announced as principal_link.changed; the agent's own status never changes, its signed status shows " +
          "`agent.principal_standing` (verified, unverified, lapsed, unlinked) at once: verified only while the record is active, its LEI " +
          "is this account's own verified organisation's and the agent's `principal` is that organisation's legal name.",
        security: bearer,
        parameters: [recordIdParam],
        requestBody: { required: true, content: { "application/json": { schema: ref("PrincipalChange") } } },
        responses: {
          "200": jsonResponse("The agent record.", ref("Record")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, "record_not_found", "invalid_transition", ...VALIDATION_CODES, "field_not_allowed",
            "principal_record_invalid", ...OTHER_METHODS,
          ]),
        },
      },
    },
  };
}
