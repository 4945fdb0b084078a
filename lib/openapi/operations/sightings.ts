import { AUTH_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, ref, VALIDATION_CODES, type JsonSchema, type Paths } from "../shared";

/** Where the account's embed badges were loaded (issue 31, docs/embed.md "What the service records"). */
export function sightingPaths(parameters: JsonSchema[]): Paths {
  return {
    "/api/v1/badge-sightings": {
      get: {
        operationId: "listBadgeSightings",
        tags: ["Records"],
        summary: "List the hosts your records' badges were shown on",
        description:
          "Every host (from the `Origin` of the badge's status request: the host name only) on which a badge of one of the " +
          "key's environment's records was loaded, with how many loads reached the service and when first and last. Hosts " +
          "the record does not cover come first (each was reported once as `badge.seen_elsewhere`), then newest first. " +
          "Counts are added every BADGE_SIGHTINGS_FLUSH_MS (10 s by default). Pass the last id as `starting_after` while " +
          "`has_more` is true; a `record_id` that is not one of the key's records is 404.",
        security: bearer,
        parameters,
        responses: {
          "200": jsonResponse("A page of sightings.", ref("BadgeSightingList")),
          ...errorResponses([...AUTH_CODES, "record_not_found", ...VALIDATION_CODES, ...OTHER_METHODS]),
        },
      },
    },
  };
}
