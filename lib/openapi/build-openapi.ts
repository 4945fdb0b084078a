import { z } from "zod";
import { domainChallengeRequest, walletChallengeRequest } from "@/lib/challenges/challenges";
import { domainEvidence } from "@/lib/claims/domain-ownership";
import { walletEvidence } from "@/lib/claims/wallet-ownership";
import { ERROR_CODES, type ErrorCode } from "@/lib/http/errors";
import { batchCreateSchema, lifecycleSchema, listRecordsQuerySchema, recordCreateSchema, recordIdSchema } from "@/lib/records/schemas";
import { MANDATE_KEY_ID_RE } from "@/lib/ids";
import { mandateKeyCreateSchema } from "@/lib/mandates/manage-mandate-keys";
import { webhookCreateSchema } from "@/lib/webhooks/manage-webhooks";
import { RESPONSE_SCHEMAS } from "./response-schemas";

/**
 * The OpenAPI 3.1 document of the public API, generated from the zod schemas the handlers
 * validate with (requests) and the response schemas (answers). OpenAPI 3.1 schema objects
 * are JSON Schema 2020-12, which is what zod emits.
 */

export type JsonSchema = { [key: string]: unknown };
type Operation = { [key: string]: unknown; responses: Record<string, unknown> };
type PathItem = Partial<Record<"get" | "post" | "patch" | "delete", Operation>>;

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
  };
};

const schemaRef = (id: string) => `#/components/schemas/${id}`;
const ref = (id: string) => ({ $ref: schemaRef(id) });

function idOf(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("openapi: a component schema has no .meta({ id })");
  return id;
}

/**
 * One zod registry conversion: every schema becomes a component and every nested schema
 * with an id becomes a `$ref` to its component. Requests are converted as the input type
 * (what a client sends: defaults make fields optional), responses as the output type.
 */
function componentsFrom(schemas: readonly z.ZodType[], io: "input" | "output", extra: Record<string, z.ZodType> = {}) {
  const registry = z.registry<{ id?: string }>();
  for (const s of schemas) registry.add(s, { id: idOf(s) });
  for (const [id, s] of Object.entries(extra)) registry.add(s, { id });
  const { schemas: out } = z.toJSONSchema(registry, { target: "draft-2020-12", io, uri: schemaRef, unrepresentable: "throw" });
  if ("__shared" in out) {
    // A nested schema has a global id but is not in this registry: zod would point into a
    // "__shared" document that does not exist here.
    throw new Error(`openapi: schemas with an id missing from the ${io} components: ${Object.keys(out.__shared?.$defs ?? {}).join(", ")}`);
  }
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(out)) {
    // Each entry is emitted as a standalone document; inside components it is a plain schema.
    const { $schema: _s, $id: _i, ...rest } = schema as JsonSchema;
    result[id] = rest;
  }
  return result;
}

function mergeComponents(...sets: Record<string, JsonSchema>[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const set of sets) {
    for (const [id, schema] of Object.entries(set)) {
      const seen = out[id];
      if (seen && JSON.stringify(seen) !== JSON.stringify(schema)) {
        throw new Error(`openapi: component ${id} differs between request and response use`);
      }
      out[id] = schema;
    }
  }
  return out;
}

// ---- responses -------------------------------------------------------------------------

const REQUEST_ID = { $ref: "#/components/headers/Request-Id" };
const CORS = { $ref: "#/components/headers/Access-Control-Allow-Origin" };

type ResponseOpts = { headers?: Record<string, unknown>; requestId?: boolean };

function jsonResponse(description: string, schema: JsonSchema, opts: ResponseOpts = {}) {
  return {
    description,
    headers: { ...(opts.requestId === false ? {} : { "Request-Id": REQUEST_ID }), ...opts.headers },
    content: { "application/json": { schema } },
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Missing, malformed, unknown or revoked API key",
  402: "Payment required: no active plan, or the plan's monthly allowance is used up",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed: this path answers other methods than the documented ones with 405 and an `Allow` header",
  409: "Conflict",
  413: "Request body too large",
  415: "Body is not JSON (send Content-Type: application/json)",
  422: "Invalid input; `param` names the field",
  500: "Internal error; it is logged and its details are never echoed",
};

/** Error responses grouped by the status the error table assigns to each code. */
function errorResponses(codes: readonly ErrorCode[], opts: ResponseOpts = {}) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set<ErrorCode>([...codes, "internal_error"])) {
    const status = ERROR_CODES[code][0];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const text = STATUS_TEXT[status] ?? "Error";
    // otherMethods() answers without the endpoint's CORS headers, with Allow.
    const statusOpts = status === 405 ? { ...opts, headers: { Allow: { $ref: "#/components/headers/Allow" } } } : opts;
    out[String(status)] = jsonResponse(`${text}. error.code: ${list.map((c) => `\`${c}\``).join(", ")}.`, ref("Error"), statusOpts);
  }
  return out;
}

const AUTH_CODES = ["missing_api_key", "invalid_api_key", "api_key_revoked"] as const satisfies readonly ErrorCode[];
/** What parseOrThrow (lib/http/validation.ts) can answer for a zod schema. */
const VALIDATION_CODES = [
  "missing_field", "invalid_type", "invalid_value", "invalid_format", "too_long", "too_short", "too_large", "unknown_field",
] as const satisfies readonly ErrorCode[];
/** readJsonObject (lib/http/body.ts): media type, size, JSON syntax; a non-object body is invalid_type. */
const BODY_CODES = ["unsupported_media_type", "body_too_large", "invalid_json", "invalid_type"] as const satisfies readonly ErrorCode[];
/**
 * Routes that export otherMethods() (lib/http/handler.ts) answer the methods they do not
 * serve with 405 in the envelope; their operations list it. (The health checks and the
 * JWKS leave unsupported methods to Next, whose bare 405 is not documented.)
 */
const OTHER_METHODS = ["method_not_allowed"] as const satisfies readonly ErrorCode[];
/** What the domain_ownership and wallet_ownership checks can refuse a record with. */
const PROOF_CODES = [
  "challenge_not_found", "challenge_expired", "challenge_used", "subject_mismatch",
  "dns_record_not_found", "invalid_signature", "signature_mismatch",
] as const satisfies readonly ErrorCode[];

// ---- the document ----------------------------------------------------------------------

/** One request per kind of claim type; the evidence shapes are DomainOwnershipEvidence and WalletOwnershipEvidence. */
const RECORD_CREATE_EXAMPLES = {
  company_status: {
    summary: "Participant-attested company status (201)",
    value: { subject: "Acme Trading Ltd", claim_type: "company_status", claim: "Acme Trading Ltd is an active company.", visibility: "public" },
  },
  domain_ownership: {
    summary: "Domain control, after publishing the challenge's TXT record (201)",
    value: {
      subject: "example.com", claim_type: "domain_ownership", claim: "Acme Trading Ltd controls the DNS of example.com.",
      evidence: { challenge_id: "dch_4mQ0xVb1sWk9cJ2tRz7a" },
    },
  },
  wallet_ownership: {
    summary: "Wallet control, with the signature over the challenge's message (201)",
    value: {
      subject: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", claim_type: "wallet_ownership",
      claim: "Acme Trading Ltd controls this Ethereum address.",
      evidence: { challenge_id: "wch_Xw2pL8d0Qn5rTs1yGv3k", signature: "0x<65-byte personal_sign signature, hex>" },
    },
  },
  reviewed: {
    summary: "Any other claim type, confirmed by a reviewer (202)",
    value: {
      subject: "Acme Trading Ltd", claim_type: "press_coverage", claim: "Acme Trading Ltd was featured in the Financial Times.",
      source_name: "Financial Times", source_url: "https://www.ft.com/content/acme-trading", checked_at: "2026-01-30T09:00:00Z",
    },
  },
};

const bearer = [{ bearerAuth: [] as string[] }];
const publicAccess: never[] = [];

export function buildOpenApi(baseUrl: string): OpenApiDocument {
  const requestComponents = componentsFrom(
    [recordCreateSchema, batchCreateSchema, lifecycleSchema, recordIdSchema, domainChallengeRequest, walletChallengeRequest, domainEvidence, walletEvidence, webhookCreateSchema, mandateKeyCreateSchema],
    "input",
    {
      ListRecordsQuery: listRecordsQuerySchema,
    },
  );
  const responseComponents = componentsFrom([...RESPONSE_SCHEMAS, recordIdSchema], "output");

  // Query parameters are the properties of listRecordsQuerySchema, as a client sends them.
  const listQuery = requestComponents.ListRecordsQuery as { properties: Record<string, JsonSchema>; required?: string[] };
  delete requestComponents.ListRecordsQuery;
  const listParameters = Object.entries(listQuery.properties).map(([name, prop]) => {
    const { description, ...schema } = prop;
    return { name, in: "query", required: listQuery.required?.includes(name) ?? false, description, schema };
  });

  const schemas = mergeComponents(requestComponents, responseComponents);
  const recordIdParam = { $ref: "#/components/parameters/RecordId" };
  const webhookIdParam = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^wh_[0-9a-z]{20}$" } };
  const mandateKeyIdParam = {
    name: "key_id", in: "path", required: true, description: "The mandate key's id.", schema: { type: "string", pattern: MANDATE_KEY_ID_RE.source },
  };
  const publicHeaders = { "Access-Control-Allow-Origin": CORS };

  const paths: Record<string, PathItem> = {
    "/api/v1/records": {
      post: {
        operationId: "createRecord",
        tags: ["Records"],
        summary: "Create a record",
        description:
          "Issues a record (201), or accepts it for human review (202, status pending_review, URLs and integrity null until issued). " +
          "Requires an Idempotency-Key: the same key with the same body returns the original answer with HTTP 200 and " +
          "`Idempotent-Replayed: true`; with a different body it is 422 `idempotency_key_reused`; while the first request " +
          "runs it is 409 `idempotency_key_in_use`. Unknown fields are rejected. Body at most 256 KiB, evidence at most 32 KiB.\n\n" +
          "The `evidence` object depends on `claim_type`. `company_status`: none. `domain_ownership`: " +
          "`{challenge_id}` (schema DomainOwnershipEvidence) of a domain challenge " +
          "(POST /api/v1/domain-challenges) whose TXT record is published; the subject is the domain. `wallet_ownership`: " +
          "`{challenge_id, signature}` (schema WalletOwnershipEvidence) of a wallet " +
          "challenge (POST /api/v1/wallet-challenges), the signature over its message (EVM 0x hex; bitcoin base64, BIP-137 or " +
          "BIP-322 simple; solana base58 or base64); the subject is the address. Both issue at source_verified; a challenge is " +
          "single use and lives one hour; a DNS resolver or EVM RPC that does not answer gives 202 pending_review. Any other " +
          "claim type takes source_name, source_url and checked_at and goes to review (202).",
        security: bearer,
        parameters: [{ $ref: "#/components/parameters/Idempotency-Key" }],
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref("RecordCreate"), examples: RECORD_CREATE_EXAMPLES } },
        },
        responses: {
          "200": jsonResponse("Idempotent replay: the original answer (of a 201 or a 202).", ref("Record"), {
            headers: { "Idempotent-Replayed": { $ref: "#/components/headers/Idempotent-Replayed" } },
          }),
          "201": jsonResponse("Issued.", ref("Record")),
          "202": jsonResponse("Accepted for review: status pending_review; the same id is issued once a reviewer confirms.", ref("Record")),
          ...errorResponses([
            "idempotency_key_required", "invalid_idempotency_key", ...BODY_CODES, ...AUTH_CODES,
            "plan_inactive", "plan_limit_reached", "idempotency_key_in_use", "idempotency_key_reused",
            ...VALIDATION_CODES, "missing_evidence", "claim_type_not_available", "evidence_level_not_allowed", "field_not_allowed",
            ...PROOF_CODES, ...OTHER_METHODS,
          ]),
        },
      },
      get: {
        operationId: "listRecords",
        tags: ["Records"],
        summary: "List records",
        description:
          "The key's account and environment only, newest first. Cursor pagination: pass the last verification_id as " +
          "`starting_after` while `has_more` is true. Unknown query parameters are rejected with 422.",
        security: bearer,
        parameters: listParameters,
        responses: {
          "200": jsonResponse("A page of records.", ref("RecordList")),
          ...errorResponses([...AUTH_CODES, ...VALIDATION_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/records/batch": {
      post: {
        operationId: "createRecordBatch",
        tags: ["Records"],
        summary: "Create up to 250 records at once",
        description:
          "`{\"records\": [...]}` with 1-250 rows, each exactly what POST /api/v1/records takes. Every row is validated before " +
          "anything is issued: any invalid row is 422 `invalid_batch` with `error.rows: [{index, errors: [{code, param, message}]}]` " +
          "(each invalid row's first problem, `param` written `records[i].field`) and nothing is issued; more than 250 rows is " +
          "422 `batch_too_large`. Otherwise each row's claim check runs and every row that passes is written in one transaction: " +
          "a row whose check refuses it (e.g. `dns_record_not_found`, `signature_mismatch`, `challenge_used`) is `failed` with " +
          "its error and the others still issue (or go to review). Live rows are metered together: if the allowance does not " +
          "cover every live row to issue, the batch is 402 `plan_limit_reached` and nothing is issued. The answer is 200 with " +
          "one result per row, in request order. One Idempotency-Key covers the batch: replaying it with the same body returns " +
          "the same batch (same batch_id and verification ids) with `Idempotent-Replayed: true`, every row that created a " +
          "record now `existing` (failed rows stay failed), and creates nothing. Body at most 4 MiB.",
        security: bearer,
        parameters: [{ $ref: "#/components/parameters/Idempotency-Key" }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: ref("BatchCreate"),
              examples: {
                mixed: {
                  summary: "Two company_status records and one reviewed claim",
                  value: {
                    records: [
                      RECORD_CREATE_EXAMPLES.company_status.value,
                      { ...RECORD_CREATE_EXAMPLES.company_status.value, subject: "Acme Holdings Ltd", claim: "Acme Holdings Ltd is an active company." },
                      RECORD_CREATE_EXAMPLES.reviewed.value,
                    ],
                  },
                },
              },
            },
          },
        },
        responses: {
          "200": jsonResponse("The batch: totals and one result per row. Also the answer to a replay.", ref("Batch"), {
            headers: {
              "Idempotent-Replayed": {
                description: "Present (`true`) when this is a replay of the batch's Idempotency-Key.",
                schema: { type: "string", const: "true" },
              },
            },
          }),
          ...errorResponses([
            "idempotency_key_required", "invalid_idempotency_key", ...BODY_CODES, ...AUTH_CODES,
            "plan_inactive", "plan_limit_reached", "idempotency_key_in_use", "idempotency_key_reused",
            ...VALIDATION_CODES, "batch_too_large", "invalid_batch", ...OTHER_METHODS,
          ]),
        },
      },
    },
    "/api/v1/records/{id}": {
      get: {
        operationId: "getRecord",
        tags: ["Records"],
        summary: "Retrieve a record",
        description: "The owner's view of a record, including pending and rejected submissions. Another account's or environment's record is 404.",
        security: bearer,
        parameters: [recordIdParam],
        responses: {
          "200": jsonResponse("The record.", ref("Record")),
          ...errorResponses([...AUTH_CODES, "record_not_found", ...OTHER_METHODS]),
        },
      },
    },
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
    "/api/v1/webhooks": {
      post: {
        operationId: "createWebhook",
        tags: ["Webhooks"],
        summary: "Register a webhook endpoint",
        description:
          "Events of the key's environment are POSTed to `url`, signed per Standard Webhooks (`webhook-id` = event id, " +
          "`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>` with `secret`). Only " +
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
    "/api/v1/mandate-keys": {
      post: {
        operationId: "createMandateKey",
        tags: ["Mandates"],
        summary: "Register a mandate key",
        description:
          "Registers the public half of an Ed25519 key pair with which the principal signs agent mandates. `key_id` is yours " +
          "to choose and unique across the service (409 `mandate_key_exists` if any account holds it, revoked keys " +
          "included). `public_key` is base64url without padding of the 32 raw bytes (a JWK's `x`); it must be a canonical " +
          "point of Ed25519's prime-order subgroup, else 422 `invalid_public_key`. Private key material — a `d`, " +
          "`private_key`, `secret_key` or `seed` field, a 64-byte or PKCS#8 key, a PEM private key — is 422 " +
          "`private_key_not_accepted` and nothing is stored. The key belongs to the account and environment of the API " +
          "key; an `account_id` in the body is 422 `field_not_allowed`. Body at most 16 KiB.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("MandateKeyCreate") } } },
        responses: {
          "201": jsonResponse("The registered key.", ref("MandateKey")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "field_not_allowed", "invalid_public_key",
            "private_key_not_accepted", "mandate_key_exists", ...OTHER_METHODS,
          ]),
        },
      },
      get: {
        operationId: "listMandateKeys",
        tags: ["Mandates"],
        summary: "List mandate keys",
        description: "The API key's account and environment only, oldest first, revoked keys included.",
        security: bearer,
        responses: {
          "200": jsonResponse("The keys.", ref("MandateKeyList")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/mandate-keys/{key_id}": {
      delete: {
        operationId: "revokeMandateKey",
        tags: ["Mandates"],
        summary: "Revoke a mandate key",
        description:
          "The key stays published at /keys/{key_id} with status `revoked` and `revoked_at`; its id is never reused. " +
          "Revoking a revoked key answers the same object (200) and changes nothing. Another account's or environment's " +
          "key is 404, like an unknown one.",
        security: bearer,
        parameters: [mandateKeyIdParam],
        responses: {
          "200": jsonResponse("The key, revoked.", ref("MandateKey")),
          ...errorResponses([...AUTH_CODES, "mandate_key_not_found", ...OTHER_METHODS]),
        },
      },
    },
    "/keys/{key_id}": {
      get: {
        operationId: "getPublicMandateKey",
        tags: ["Public", "Mandates"],
        summary: "Read a mandate key back",
        description:
          "Public, no key. The registered key, its status and the same key as a JWK, so anyone can check a mandate " +
          "signature; nothing about the owner. Revoked keys are still answered (status `revoked`). May be cached for 60 s.",
        security: publicAccess,
        parameters: [mandateKeyIdParam],
        responses: {
          "200": jsonResponse("The key.", ref("PublicMandateKey"), {
            headers: { ...publicHeaders, "Cache-Control": { schema: { type: "string", const: "public, max-age=60, s-maxage=60" } } },
          }),
          ...errorResponses(["mandate_key_not_found", ...OTHER_METHODS], { headers: publicHeaders }),
        },
      },
    },
    "/api/v1/domain-challenges": {
      post: {
        operationId: "createDomainChallenge",
        tags: ["Challenges"],
        summary: "Request a domain challenge",
        description:
          "Step one of a domain_ownership record. The domain is normalised (trimmed, lower case, trailing dot dropped, IDN " +
          "to punycode); it must be a bare name (no scheme, path, port or userinfo) under an ICANN public suffix, else 422 " +
          "`invalid_domain` (`localhost`, `com`, `co.uk`, IP addresses, `.local`). Publish `txt_value` as a TXT record at " +
          "`txt_name` (`_prs-challenge.<domain>`, value `prs-verification=<token>`) at your DNS provider, then create the " +
          "record with `evidence.challenge_id` = `id` and `subject` = the domain. The challenge belongs to the key's account " +
          "and environment, lives one hour and is used once. Body at most 16 KiB.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("DomainChallengeCreate") } } },
        responses: {
          "201": jsonResponse("The challenge and the TXT record to publish.", ref("DomainChallenge")),
          ...errorResponses([...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "invalid_domain", ...OTHER_METHODS]),
        },
      },
    },
    "/api/v1/wallet-challenges": {
      post: {
        operationId: "createWalletChallenge",
        tags: ["Challenges"],
        summary: "Request a wallet challenge",
        description:
          "Step one of a wallet_ownership record. Networks: ethereum, base, polygon, arbitrum, optimism, bsc (EVM: EIP-55 " +
          "checksum if mixed case; answered checksummed), bitcoin (mainnet 1…, 3… and bc1q… addresses; taproot bc1p… is " +
          "422 `unsupported_address_type`) and solana (base58 32-byte key). A bad address is 422 `invalid_address`. Sign " +
          "`message` exactly as returned (UTF-8) with the key behind the address — EVM personal_sign (EIP-191; smart " +
          "accounts via EIP-1271/6492 where the service has an RPC for the network), bitcoin BIP-137 or BIP-322 simple, " +
          "solana signMessage (ed25519) — then create the record with `evidence: {challenge_id, signature}` and `subject` = " +
          "the address. The challenge belongs to the key's account and environment, lives one hour and is used once. " +
          "`claim_type` defaults to wallet_ownership (dex_control is reserved: its records are not available yet). Body at " +
          "most 16 KiB.",
        security: bearer,
        requestBody: { required: true, content: { "application/json": { schema: ref("WalletChallengeCreate") } } },
        responses: {
          "201": jsonResponse("The challenge and the message to sign.", ref("WalletChallenge")),
          ...errorResponses([
            ...BODY_CODES, ...AUTH_CODES, ...VALIDATION_CODES, "invalid_address", "unsupported_address_type", ...OTHER_METHODS,
          ]),
        },
      },
    },
    "/api/v1/usage": {
      get: {
        operationId: "getUsage",
        tags: ["Account"],
        summary: "This month's usage",
        description: "Live records issued and reviewed verifications this calendar month (UTC) against the plan's allowance.",
        security: bearer,
        responses: {
          "200": jsonResponse("Usage.", ref("Usage")),
          ...errorResponses([...AUTH_CODES, ...OTHER_METHODS]),
        },
      },
    },
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

  return {
    openapi: "3.1.0",
    info: {
      title: "Proof Record Service API",
      version: "1.0.0",
      description:
        "Issues signed, verifiable records (certificates) stating a claim about a subject, and answers their public, " +
        "signed status. JSON over HTTPS, snake_case fields, RFC 3339 UTC timestamps. Every answer carries a Request-Id " +
        "header; every error has the same envelope (see Error). Signatures are Ed25519, base64url without padding, over " +
        "RFC 8785 canonical JSON; keys are published at /.well-known/jwks.json.",
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: "Records", description: "Issue and manage records (API key)." },
      { name: "Challenges", description: "Prove control of a domain or a wallet: request a challenge, answer it, then create the record (API key)." },
      { name: "Webhooks", description: "Signed event deliveries (Standard Webhooks) from the transactional outbox (API key)." },
      { name: "Mandates", description: "Principals' Ed25519 public keys for signing agent mandates; read back publicly at /keys/{key_id}." },
      { name: "Public", description: "Keyless, CORS-enabled endpoints anyone can call." },
      { name: "Account", description: "The account behind the API key." },
      { name: "Meta", description: "Service description and health." },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "prs_sandbox_… | prs_live_…",
          description:
            "Send `Authorization: Bearer <API key>`. Keys are `prs_sandbox_` or `prs_live_` followed by 32 base62 " +
            "characters, and the key decides the environment of everything it creates and sees. Sandbox keys are free " +
            "and their records are never verified; live keys need a confirmed email and an active plan. A key is shown " +
            "once; never put it in browser code, URLs or repositories.",
        },
      },
      parameters: {
        "Idempotency-Key": {
          name: "Idempotency-Key",
          in: "header",
          required: true,
          description:
            "Unique key for this creation, 1-255 printable ASCII characters without spaces. Scoped to account, " +
            "environment and endpoint; kept at least 24 h.",
          schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
        },
        RecordId: {
          name: "id",
          in: "path",
          required: true,
          description: "The record's verification_id.",
          schema: ref("RecordId"),
        },
      },
      headers: {
        "Request-Id": {
          description: "Identifies this request; quote it when reporting a problem. Errors repeat it as error.request_id.",
          schema: { type: "string", pattern: "^req_[0-9a-z]{20}$" },
        },
        "Idempotent-Replayed": {
          description: "Present on a replayed answer: the response is the stored result of the first request with this key.",
          required: true,
          schema: { type: "string", const: "true" },
        },
        "Access-Control-Allow-Origin": {
          description: "Public endpoints may be called from any origin.",
          schema: { type: "string", const: "*" },
        },
        Allow: {
          description: "The methods this path serves, comma-separated (e.g. `GET, POST`).",
          required: true,
          schema: { type: "string" },
        },
      },
    },
  };
}

