import { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX } from "@/lib/record-model/history-page";
import { errorResponses, jsonResponse, OTHER_METHODS, publicAccess, publicHeaders, recordIdParam, ref, type Paths } from "../shared";

const atParam = {
  name: "at",
  in: "query",
  required: false,
  description:
    "A past instant (RFC 3339 with a time zone, e.g. 2026-01-31T12:00:00Z): answer the status the record had then. " +
    "Absent: the status now.",
  schema: { type: "string", format: "date-time" },
};

const beforeParam = {
  name: "before",
  in: "query",
  required: false,
  description: "Cursor: the record's `lifecycle.history_before` or a page's `next_before`. Absent: the latest page.",
  schema: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
};

const limitParam = {
  name: "limit",
  in: "query",
  required: false,
  description: `Page size, 1-${HISTORY_PAGE_MAX} (default ${HISTORY_PAGE_DEFAULT}).`,
  schema: { type: "integer", minimum: 1, maximum: HISTORY_PAGE_MAX, default: HISTORY_PAGE_DEFAULT },
};

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
    "/api/v1/records/{id}/log": {
      get: {
        operationId: "getRecordLog",
        tags: ["Public"],
        summary: "Transparency-log entries with inclusion proofs",
        description:
          "Public, no key. The record's entries in the transparency log (its issuance and each status change), each " +
          "with an RFC 9162 inclusion proof against the latest checkpoint, which is returned beside them as a C2SP signed " +
          "note (key at `/log/key`; tiles at `/log/tile/…`, per C2SP tlog-tiles). A record's history has no bound, so " +
          "the answer is a page: the latest `limit` entries before `before` (absent: the latest), oldest first, and " +
          "`entries_before`, the cursor for the page before them (null: none). Sandbox records are not logged. " +
          "Records not issued are 404. A `before` or `limit` that is not a whole number, or given twice: 422 " +
          "`invalid_format`; out of range: 422 `invalid_value`. See docs/verify.md.",
        security: publicAccess,
        parameters: [recordIdParam, { ...beforeParam, description: "Cursor: a previous answer's `entries_before`. Absent: the latest page." }, limitParam],
        responses: {
          "200": jsonResponse("The record's log entries.", ref("RecordLog"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "no-cache" } } },
          }),
          ...errorResponses(["record_not_found", "not_found", "invalid_format", "invalid_value", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
    "/api/v1/records/{id}/history": {
      get: {
        operationId: "getRecordHistory",
        tags: ["Public"],
        summary: "Older lifecycle history, a page at a time",
        description:
          "Public, no key. A record's answers carry only its latest transitions (`lifecycle.history`, at most 50) with " +
          "`lifecycle.history_count` and the cursor `lifecycle.history_before`; this reads the rest, newest page first: the " +
          "`limit` transitions written before `before`, oldest first, and `next_before` for the page before them. Without " +
          "`before`: the latest page. Pages never overlap or skip: the history is append-only. Records not issued are 404, " +
          "as for the status. A `before` or `limit` that is not a whole number, or given twice: 422 `invalid_format`; out of " +
          "range: 422 `invalid_value`.",
        security: publicAccess,
        parameters: [recordIdParam, beforeParam, limitParam],
        responses: {
          "200": jsonResponse("A page of the history.", ref("HistoryPage"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "no-cache" } } },
          }),
          ...errorResponses(["record_not_found", "invalid_format", "invalid_value", ...OTHER_METHODS], { headers: publicHeaders }),
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
          "again for at most 60 s, never after the status changed. Records not issued (pending, rejected) are 404.\n\n" +
          "With `?at=<RFC 3339>`: the signed status the record had at that past instant, from its history — `status` and " +
          "`status_changed_at` as they stood then (an expiry passed by then reads as expired), `verified` and the standing of " +
          "linked records as of then, `at` in the signed body and `as_of` the moment of signing. The account profile is " +
          "today's. Before the record was issued: 404 `record_not_found`; an instant in the future: 422 `invalid_value`; " +
          "a malformed or repeated `at`: 422 `invalid_format`.\n\n" +
          "A current answer requested from another site (an `Origin` header, as a browser sends with the embed badge's fetch) " +
          "is counted as a badge sighting of that host name — nothing else of the request is kept (GET /api/v1/badge-sightings).",
        security: publicAccess,
        parameters: [recordIdParam, atParam],
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
          ...errorResponses(["record_not_found", "invalid_format", "invalid_value", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
  };
}
