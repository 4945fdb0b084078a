import { errorResponses, jsonResponse, OTHER_METHODS, publicAccess, publicHeaders, recordIdParam, ref, type Paths } from "../shared";

/** A JSON answer served as a W3C credential (`application/vc`). */
const vcResponse = (description: string, schema: Record<string, unknown>, cacheControl: string) => {
  const r = jsonResponse(description, schema, {
    headers: { ...publicHeaders, "Cache-Control": { description: cacheControl, schema: { type: "string" } } },
  });
  return { ...r, content: { "application/vc": r.content["application/json"] } };
};

/** The records as W3C Verifiable Credentials, their status lists and the issuer's DID document (docs/api.md §9.20). */
export function credentialPaths(): Paths {
  return {
    "/api/v1/records/{id}/vc": {
      get: {
        operationId: "getRecordCredential",
        tags: ["Public"],
        summary: "The record as a W3C Verifiable Credential",
        description:
          "Public, no key, free. The issued record as a Verifiable Credential (Data Model 2.0) secured with a " +
          "DataIntegrityProof, cryptosuite `eddsa-jcs-2022`, made with the active signing key (`verificationMethod` " +
          "`did:web:<host>#<kid>`, resolved by /.well-known/did.json). Its standing is not in the credential: " +
          "`credentialStatus` points at the revocation and suspension Bitstring Status Lists. Sandbox records are served " +
          "too, marked `environment: sandbox` and named as test data, by another issuer: `did:web:<host>:sandbox` " +
          "(resolved by /sandbox/did.json), signed with a sandbox-only key (`#sbx-…`), their status in the sandbox lists " +
          "(/sandbox/status-lists/{purpose}/{list}); a verifier trusting `did:web:<host>` never accepts them. " +
          "Records not issued are 404 `record_not_found`.",
        security: publicAccess,
        parameters: [recordIdParam],
        responses: {
          "200": vcResponse("The credential.", ref("RecordCredential"), "public, max-age=60"),
          ...errorResponses(["record_not_found", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
    "/api/v1/status-lists/{purpose}/{list}": {
      get: {
        operationId: "getStatusList",
        tags: ["Public"],
        summary: "A Bitstring Status List credential",
        description:
          "Public, no key. The W3C BitstringStatusListCredential named by a record credential's `credentialStatus`, built " +
          "from the records' statuses at the moment of the request and signed like the credential (eddsa-jcs-2022). " +
          "`revocation`: the bit is set for revoked, superseded and expired records; `suspension`: for suspended ones " +
          "(cleared on reinstate). 131,072 entries per list. Live records only (and every sandbox record's revocation bit " +
          "is set); sandbox records' lists are the sandbox issuer's, at /sandbox/status-lists/{purpose}/{list}. " +
          "An unknown purpose or list: 404 `not_found`.",
        security: publicAccess,
        parameters: [
          { name: "purpose", in: "path", required: true, schema: { type: "string", enum: ["revocation", "suspension"] } },
          { name: "list", in: "path", required: true, schema: { type: "integer", minimum: 0 } },
        ],
        responses: {
          "200": vcResponse("The status list.", ref("StatusListCredential"), "public, max-age=N, s-maxage=N with N at most 60."),
          ...errorResponses(["not_found", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
    "/.well-known/did.json": {
      get: {
        operationId: "getDidDocument",
        tags: ["Public"],
        summary: "The issuer's did:web document",
        description:
          "Public. `did:web:<host>`: every published signing key (the JWKS set) as a Multikey verification method " +
          "(`<DID>#<kid>`), each listed under `assertionMethod`. Served as `application/did+json`. No sandbox key: those " +
          "are in the sandbox issuer's document, /sandbox/did.json (`did:web:<host>:sandbox`).",
        security: publicAccess,
        responses: {
          "200": jsonResponse("The DID document.", ref("DidDocument"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "public, max-age=300" } } },
          }),
          ...errorResponses([], { headers: publicHeaders }),
        },
      },
    },
  };
}
