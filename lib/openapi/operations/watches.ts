import { AUTH_CODES, BODY_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, ref, VALIDATION_CODES, type Paths } from "../shared";

const watchIdParam = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^wat_[0-9a-z]{20}$" } };

/** Impersonation watches (issue 31; lib/watches). */
export function watchPaths(): Paths {
  return {
    "/api/v1/watches": {
      post: {
        operationId: "createWatch",
        tags: ["Watches"],
        summary: "Watch a name, domain, IBAN, wallet or LEI",
        description:
          "When a live public record of another account carries the value — or, for names and domains, a confusable of it " +
          "(the same Unicode TR39 skeleton, e.g. a Cyrillic `а` for a Latin `a`) — the account gets one `watch.matched` event " +
          "(webhooks of its live environment) and an email, once per record. The value is normalised per kind (`match_key`): " +
          "domain → registrable domain; IBAN and wallet as the lookup writes them; LEI checked (ISO 17442); name NFKC, " +
          "case-folded, spaces collapsed. A new exact IBAN, wallet or domain watch fires at once for live public records that " +
          "already carry it; confusables, names and LEIs only for records issued afterwards. The same value again answers " +
          "200 with the watch the account has. At most 200 watches per account (422 `watch_limit_reached`). Watches belong " +
          "to the account: a sandbox or a live key manages the same ones.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("WatchCreate") } } },
        responses: {
          "201": jsonResponse("The new watch (with any matches it found at once).", ref("Watch")),
          "200": jsonResponse("The account already watches this value: that watch.", ref("Watch")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "invalid_name", "invalid_domain", "invalid_iban", "invalid_address", "invalid_lei",
            "watch_limit_reached", ...OTHER_METHODS,
          ]),
        },
      },
      get: {
        operationId: "listWatches",
        tags: ["Watches"],
        summary: "List the account's watches with their recent matches",
        description: "Newest first, each with its 10 newest matches (the records, how they matched, their certificates).",
        security: bearer,
        responses: {
          "200": jsonResponse("The account's watches.", ref("WatchList")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/watches/{id}": {
      delete: {
        operationId: "deleteWatch",
        tags: ["Watches"],
        summary: "Delete a watch",
        description: "The watch and its matches are deleted; default watches too. Another account's id is 404.",
        security: bearer,
        parameters: [watchIdParam],
        responses: {
          "200": jsonResponse("Deleted.", ref("WatchDeleted")),
          ...errorResponses([...AUTH_CODES, "watch_not_found", ...OTHER_METHODS]),
        },
      },
    },
  };
}
