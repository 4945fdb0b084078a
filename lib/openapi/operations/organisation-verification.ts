import { AUTH_CODES, BODY_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, ref, VALIDATION_CODES, type Paths } from "../shared";

const fileIdParam = {
  name: "id", in: "path", required: true, description: "The file's id (`file_…`).",
  schema: { type: "string", pattern: "^file_[0-9a-z]{24}$" },
};

/** Documents for reviewers, and the application to be a verified organisation (CONTRACT "Trust model"). */
export function organisationVerificationPaths(): Paths {
  return {
    "/api/v1/files": {
      post: {
        operationId: "uploadFile",
        tags: ["Account"],
        summary: "Upload a document for a reviewer",
        description:
          "multipart/form-data with one part named `file`. Accepted are PDF, PNG and JPEG, recognised by their content (`%PDF-`, the PNG signature, `FF D8 FF`) — never by the file name or the declared type — of at most 10 MiB. " +
          "The file is readable only by this account and by Proof Records reviewers: never public, never in a signed payload (only its SHA-256 may be). It is deleted 90 days after the decision that used it, or 90 days after upload when nothing used it. Sandbox and live keys alike.",
        security: bearer,
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary", description: "The document (PDF, PNG or JPEG, ≤ 10 MiB)." } } },
            },
          },
        },
        responses: {
          "201": jsonResponse("Stored.", ref("File")),
          ...errorResponses([...AUTH_CODES, "unsupported_media_type", "file_too_large", "unsupported_file_type", "missing_field", "invalid_value", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/files/{id}": {
      get: {
        operationId: "getFile",
        tags: ["Account"],
        summary: "A document's metadata",
        description: "The file's name, type, size and SHA-256 — never its bytes. Another account's file is 404 `file_not_found`.",
        security: bearer,
        parameters: [fileIdParam],
        responses: {
          "200": jsonResponse("The file.", ref("File")),
          ...errorResponses([...AUTH_CODES, "file_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/account/organisation-verification": {
      post: {
        operationId: "applyForOrganisationVerification",
        tags: ["Account"],
        summary: "Apply to be a verified organisation",
        description:
          "A Proof Records reviewer confirms, with a checklist, that the LEI is ISSUED/ACTIVE in the LEI register (asked now; its answer is in `register`), that a document names the applicant as able to act for the entity, that the entity confirmed the application through a channel the applicant did not supply, and which of the account's proved domains belong to the entity. " +
          "Approval makes the account a verified organisation: `account.name` becomes the legal name (from the register; from the documents when `lei` is omitted), locked until a new verification, and every public answer names the organisation. " +
          "`documents` are ids of this account's files (POST /api/v1/files); one application may be pending at a time (409 `verification_pending`). An LEI already verified for another account is shown to the reviewer, and its approval is refused until that verification is removed. Sandbox and live keys alike: the organisation is the account's.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("OrganisationVerificationRequest") } } },
        responses: {
          "202": jsonResponse("Accepted: pending a reviewer.", ref("OrganisationVerification")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "invalid_lei", "invalid_document", "verification_pending", ...OTHER_METHODS]),
        },
      },
      get: {
        operationId: "getOrganisationVerification",
        tags: ["Account"],
        summary: "The latest application and the verified organisation",
        description: "The account's latest application (pending, approved or rejected with the reason) and its verified organisation now (`status: lapsed` once the LEI re-check finds the entity or its registration no longer active).",
        security: bearer,
        responses: {
          "200": jsonResponse("The state.", ref("OrganisationVerificationState")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
  };
}
