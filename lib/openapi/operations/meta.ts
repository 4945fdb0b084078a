import { errorResponses, jsonResponse, OTHER_METHODS, publicAccess, publicHeaders, ref, type Paths } from "../shared";

/** The service's description, its signing keys and its health. */
export function metaPaths(): Paths {
  return {
    "/api/v1/openapi.json": {
      get: {
        operationId: "getOpenApi",
        tags: ["Meta"],
        summary: "This document",
        description: "The OpenAPI 3.1 description of the API, generated from the schemas the handlers validate with. Public.",
        security: publicAccess,
        responses: {
          "200": jsonResponse("An OpenAPI 3.1 document.", { type: "object", description: "https://spec.openapis.org/oas/v3.1.0" }, {
            headers: publicHeaders,
          }),
          ...errorResponses([...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
    "/.well-known/jwks.json": {
      get: {
        operationId: "getJwks",
        tags: ["Public"],
        summary: "Published signing keys",
        description:
          "Public Ed25519 keys (JWKS) that sign records and status answers; find a key by the `kid` named in " +
          "`signing_key_id`. Retired keys stay published.",
        security: publicAccess,
        responses: {
          "200": jsonResponse("The key set.", ref("Jwks"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "public, max-age=300" } } },
          }),
          ...errorResponses([], { headers: publicHeaders }),
        },
      },
    },
    "/api/health": {
      get: {
        operationId: "getHealth",
        tags: ["Meta"],
        summary: "Readiness",
        description: "Ready when the database answers.",
        security: publicAccess,
        responses: {
          "200": jsonResponse("Ready.", ref("Health")),
          "503": jsonResponse("The database is unreachable.", ref("Health")),
          ...errorResponses([]),
        },
      },
    },
    "/api/health/ready": {
      get: {
        operationId: "getReadiness",
        tags: ["Meta"],
        summary: "Readiness for a load balancer",
        description: "200 when the database answers, every migration this build ships is applied and a signing key is loaded; 503 otherwise, naming the part that is not. Never cached.",
        security: publicAccess,
        responses: {
          "200": jsonResponse("Ready.", ref("Readiness")),
          "503": jsonResponse("Not ready.", ref("Readiness")),
          ...errorResponses([]),
        },
      },
    },
    "/api/metrics": {
      get: {
        operationId: "getMetrics",
        tags: ["Meta"],
        summary: "Prometheus metrics (operators)",
        description:
          "For a scraper holding the operator's METRICS_TOKEN: API requests by route, method and status with latency histograms, " +
          "the outbox backlog, pending and failed webhook deliveries, the review queue's size and oldest age, re-check outcomes. " +
          "404 when no METRICS_TOKEN is configured; 401 `invalid_api_key` for another token.",
        security: [{ metricsToken: [] }],
        responses: {
          "200": { description: "Prometheus text exposition format.", content: { "text/plain": { schema: { type: "string" } } } },
          ...errorResponses(["not_found", "invalid_api_key"]),
        },
      },
    },
    "/api/health/live": {
      get: {
        operationId: "getLiveness",
        tags: ["Meta"],
        summary: "Liveness",
        description: "The process answers. No database access, no Request-Id.",
        security: publicAccess,
        responses: { "200": jsonResponse("Alive.", ref("Liveness"), { requestId: false }) },
      },
    },
  };
}
