import { errorResponses, jsonResponse, OTHER_METHODS, publicAccess, publicHeaders, recordIdParam, ref, type Paths } from "../shared";

/** A record's public, keyless answers: the signed status and the signature re-check. */
export function statusPaths(): Paths {
  return {
    "/api/v1/records/{id}/signature": {
      get: {
        operationId: "checkRecordSignature",
        tags: ["Public"],
        summary: "Re-verify a record's signature",
        description:
          "Public, no key. Re-checks the stored Ed25519 signature and payload hash against the published key. " +
          "An invalid signature is an answer (`valid: false`), not an error. Records not issued are 404.",
        security: publicAccess,
        parameters: [recordIdParam],
        responses: {
          "200": jsonResponse("The check.", ref("SignatureCheck"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "no-store" } } },
          }),
          ...errorResponses(["record_not_found", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
    "/api/v1/records/{id}/status": {
      get: {
        operationId: "getRecordStatus",
        tags: ["Public"],
        summary: "Signed status",
        description:
          "Public, no key, free and never metered. The answer is signed (see SignedStatus for the recipe) and may be served " +
          "again for at most 60 s, never after the status changed. Records not issued (pending, rejected) are 404.",
        security: publicAccess,
        parameters: [recordIdParam],
        responses: {
          "200": jsonResponse("The signed status.", ref("SignedStatus"), {
            headers: {
              ...publicHeaders,
              "Cache-Control": {
                description: "public, max-age=N, s-maxage=N with N at most 60: how long this signed answer may be reused.",
                schema: { type: "string" },
              },
            },
          }),
          ...errorResponses(["record_not_found", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
  };
}
