import {
  AUTH_CODES, BODY_CODES, bearer, errorResponses, jsonResponse, OTHER_METHODS, publicAccess, publicHeaders, ref, VALIDATION_CODES,
  type JsonSchema, type Paths,
} from "../shared";

const webhookIdParam = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^wh_[0-9a-z]{20}$" } };
const eventIdParam = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^evt_[0-9a-z]{24}$" } };

/** Webhook endpoints, their deliveries, and the events they carry. */
export function webhookPaths(eventListParameters: JsonSchema[]): Paths {
  return {
    "/api/v1/events": {
      get: {
        operationId: "listEvents",
        tags: ["Webhooks"],
        summary: "List events of the last 30 days",
        description:
          "Every event raised for the key's environment in the last 30 days, newest first, whether or not an endpoint was " +
          "subscribed to it; optionally of one `type` or about one `record_id`. Pass the last id as `starting_after` while " +
          "`has_more` is true. Unknown query parameters are rejected with 422.",
        security: bearer,
        parameters: eventListParameters,
        responses: {
          "200": jsonResponse("A page of events.", ref("EventList")),
          ...errorResponses([...AUTH_CODES, ...VALIDATION_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/events/{id}": {
      get: {
        operationId: "getEvent",
        tags: ["Webhooks"],
        summary: "An event with its delivery to each endpoint",
        description:
          "The event and, per endpoint it went to, the delivery's status and every attempt: time, HTTP status, latency, error " +
          "and the answer's first 1 KiB. An event of another account or environment, or older than 30 days, is 404.",
        security: bearer,
        parameters: [eventIdParam],
        responses: {
          "200": jsonResponse("The event.", ref("EventDetail")),
          ...errorResponses([...AUTH_CODES, "event_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks": {
      post: {
        operationId: "createWebhook",
        tags: ["Webhooks"],
        summary: "Register a webhook endpoint",
        description:
          "Events of the key's environment are POSTed to `url`, signed per Standard Webhooks (`webhook-id` = event id, " +
          "`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body> v1a,<base64 Ed25519 of the same>`: " +
          "`v1` with `secret`, `v1a` with the published key named in `webhook-key-id`, see GET /api/v1/webhooks/public-keys). Only " +
          "https:// destinations resolving to public addresses (checked now and again at every connection; redirects are " +
          "not followed). Retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; disabled (and the owner mailed) after 15 " +
          "consecutive failures or a 410. The secret is shown only in this answer.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("WebhookCreate") } } },
        responses: {
          "201": jsonResponse("The endpoint, with its signing secret (shown once).", ref("Webhook")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "invalid_webhook_url", ...OTHER_METHODS]),
        },
      },
      get: {
        operationId: "listWebhooks",
        tags: ["Webhooks"],
        summary: "List webhook endpoints",
        security: bearer,
        responses: {
          "200": jsonResponse("The key's environment's endpoints (no secrets).", ref("WebhookList")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks/{id}": {
      delete: {
        operationId: "deleteWebhook",
        tags: ["Webhooks"],
        summary: "Delete a webhook endpoint",
        description: "No further deliveries; pending ones are marked failed. Another account's id is 404.",
        security: bearer,
        parameters: [webhookIdParam],
        responses: {
          "200": jsonResponse("Deleted.", ref("WebhookDeleted")),
          ...errorResponses([...AUTH_CODES, "webhook_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks/{id}/test": {
      post: {
        operationId: "testWebhook",
        tags: ["Webhooks"],
        summary: "Send a webhook.test event to this endpoint",
        security: bearer,
        parameters: [webhookIdParam],
        responses: {
          "202": jsonResponse("Queued; it is delivered like any event.", ref("WebhookTestEvent")),
          ...errorResponses([...AUTH_CODES, "webhook_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks/{id}/replay": {
      post: {
        operationId: "replayWebhookEvent",
        tags: ["Webhooks"],
        summary: "Send one event again to this endpoint",
        description:
          "Resends an event of the last 30 days (GET /api/v1/events) with the same `webhook-id` (the event id), freshly " +
          "signed, through normal delivery: due now, with the retry schedule from its start. Any event of the key's " +
          "environment, subscribed to or not. A disabled endpoint is 409 `webhook_disabled`: enable it first.",
        security: bearer,
        parameters: [webhookIdParam],
        requestBody: { required: true, content: { "application/json": { schema: ref("WebhookReplay") } } },
        responses: {
          "202": jsonResponse("Queued.", ref("WebhookReplayed")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "webhook_not_found", "event_not_found", "webhook_disabled", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks/{id}/rotate-secret": {
      post: {
        operationId: "rotateWebhookSecret",
        tags: ["Webhooks"],
        summary: "Rotate the signing secret, with an overlap",
        description:
          "A new `secret` (shown only in this answer). The current one keeps signing for `expire_current_in_s` seconds " +
          "(default 86400, at most 604800, 0 = stop at once): meanwhile every delivery's `webhook-signature` carries a " +
          "`v1` entry for each secret, newest first, so a receiver with either verifies it. A rotation during an overlap " +
          "drops the oldest secret.",
        security: bearer,
        parameters: [webhookIdParam],
        requestBody: { required: true, content: { "application/json": { schema: ref("WebhookRotateSecret") } } },
        responses: {
          "200": jsonResponse("The endpoint, with its new secret (shown once).", ref("Webhook")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "webhook_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks/{id}/enable": {
      post: {
        operationId: "enableWebhook",
        tags: ["Webhooks"],
        summary: "Re-enable a disabled endpoint",
        description: "Resets the failure count; pending deliveries resume.",
        security: bearer,
        parameters: [webhookIdParam],
        responses: {
          "200": jsonResponse("The endpoint, enabled.", ref("Webhook")),
          ...errorResponses([...AUTH_CODES, "webhook_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks/{id}/deliveries": {
      get: {
        operationId: "listWebhookDeliveries",
        tags: ["Webhooks"],
        summary: "Recent deliveries with every attempt",
        description: "Newest first (up to 50): status, and per attempt the time, HTTP status, latency and error.",
        security: bearer,
        parameters: [webhookIdParam],
        responses: {
          "200": jsonResponse("Deliveries.", ref("WebhookDeliveryList")),
          ...errorResponses([...AUTH_CODES, "webhook_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/webhooks/public-keys": {
      get: {
        operationId: "getWebhookPublicKeys",
        tags: ["Webhooks"],
        summary: "Keys that sign webhooks (v1a)",
        description:
          "The Ed25519 keys behind the `v1a` entry of `webhook-signature`, as Standard Webhooks public keys (`whpk_…`): the " +
          "same published set as /.well-known/jwks.json. A delivery names its key in the `webhook-key-id` header (a PRS " +
          "extension). Retired keys stay listed. Public.",
        security: publicAccess,
        responses: {
          "200": jsonResponse("The keys.", ref("WebhookPublicKeys"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "public, max-age=300" } } },
          }),
          ...errorResponses([...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
  };
}
