import { z } from "zod";
import { RECORD_STATUSES } from "@/drizzle/schema";
import type { getUsage } from "@/lib/accounts/get-usage";
import type { BatchAnswer, BatchOutcome } from "@/lib/records/batch-answer";
import type { createDomainChallenge, createWalletChallenge } from "@/lib/challenges/challenges";
import { SUBSCRIBABLE_EVENTS } from "@/lib/outbox/write-event";
import type { createWebhook, listDeliveries, sendTestEvent } from "@/lib/webhooks/manage-webhooks";
import { MANDATE_KEY_ID_RE } from "@/lib/ids";
import type { serializeMandateKey, serializePublicMandateKey } from "@/lib/mandates/manage-mandate-keys";
import { domainEvidence } from "@/lib/claims/domain-ownership";
import { walletEvidence } from "@/lib/claims/wallet-ownership";
import { ERROR_CODES, type ErrorCode, type ErrorType, type errorBody } from "@/lib/http/errors";
import { WALLET_NETWORKS } from "@/lib/proofs/wallet-address";
import { EVIDENCE_LEVELS, recordIdSchema } from "@/lib/records/schemas";
import type { RecordObject } from "@/lib/records/serialize-record";
import type { statusFields } from "@/lib/records/signed-status";
import type { verifyRecordSignature } from "@/lib/records/verify-record-signature";
import type { publicJwks } from "@/lib/signing/keys";

/**
 * What the API answers, as zod schemas. They exist for the OpenAPI document (and tests);
 * the handlers build their answers in code (serializeRecord, statusFields, ...). The type
 * checks at the bottom of this file keep the field sets of both in step.
 *
 * Objects are strict (`additionalProperties: false`) unless an answer may grow
 * type-specific fields (signed status, signed payload).
 */

// ---- shared pieces ---------------------------------------------------------------------

export const timestampSchema = z.iso
  .datetime()
  .meta({ id: "Timestamp", description: "RFC 3339 timestamp, UTC with milliseconds.", examples: ["2026-01-31T12:00:00.000Z"] });

const nullableTimestamp = timestampSchema.nullable();

export const recordStatusSchema = z.enum(RECORD_STATUSES).meta({
  id: "RecordStatus",
  description:
    "pending_review (awaiting a reviewer, not issued), active, suspended, revoked, expired, superseded, or rejected (terminal, never issued).",
});

export const evidenceLevelSchema = z.enum(EVIDENCE_LEVELS).meta({
  id: "EvidenceLevel",
  description: "How far the claim was checked.",
});

export const environmentSchema = z.enum(["sandbox", "live"]).meta({
  id: "Environment",
  description: "Comes from the API key. Sandbox records are free, private and never verified.",
});

const urlOrNull = (what: string) => z.url().nullable().describe(`${what}; null until the record is issued.`);
const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/);
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/).describe("Hex SHA-256 of the RFC 8785 canonical JSON of the signed payload.");

// ---- record ----------------------------------------------------------------------------

export const historyEntrySchema = z
  .strictObject({
    status: recordStatusSchema,
    at: timestampSchema,
    reason: z.string().nullable(),
    by: z.string().describe("Kind of actor, never an internal id: owner, reviewer, admin or system."),
  })
  .meta({ id: "LifecycleHistoryEntry" });

export const recordLifecycleSchema = z
  .strictObject({
    status: recordStatusSchema,
    issued_at: nullableTimestamp,
    valid_from: nullableTimestamp,
    expires_at: nullableTimestamp,
    recheck_at: nullableTimestamp,
    status_changed_at: timestampSchema,
    history: z.array(historyEntrySchema).describe("Every transition, oldest first. Immutable."),
  })
  .meta({ id: "RecordLifecycle" });

export const recordIntegritySchema = z
  .strictObject({
    algorithm: z.literal("Ed25519"),
    canonicalization: z.literal("RFC8785"),
    signing_key_id: z.string().describe("kid of the key in /.well-known/jwks.json that signed the record."),
    payload_sha256: sha256Hex,
    signature: base64url.describe("Ed25519 signature over the canonical signed payload, base64url without padding."),
  })
  .meta({ id: "RecordIntegrity" });

export const recordLinkSchema = z
  .strictObject({
    role: z.string().describe("What the linked record is to this one (e.g. principal_record)."),
    verification_id: recordIdSchema,
    status: recordStatusSchema.describe("The linked record's status now."),
    standing: z.enum(["active", "lapsed"]).describe("active while the linked record is active; lapsed otherwise."),
  })
  .meta({ id: "RecordLink", description: "A record this one rests on." });

export const recordSchema = z
  .looseObject({
    object: z.literal("record"),
    verification_id: recordIdSchema,
    status: recordStatusSchema,
    environment: environmentSchema,
    verified: z.boolean().describe("True only for live, active records at source_verified or evidence_verified."),
    claim_type: z.string(),
    subject: z.string(),
    claim: z.string(),
    evidence_level: evidenceLevelSchema,
    visibility: z.enum(["public", "private"]),
    evidence: z.record(z.string(), z.unknown()).describe("The public part of the evidence."),
    certificate_url: urlOrNull("Public certificate page"),
    qr_url: urlOrNull("QR code (SVG; ?format=png for PNG)"),
    signature_url: urlOrNull("Public signature check"),
    status_url: urlOrNull("Public signed status"),
    review: z
      .strictObject({ reason: z.string().nullable() })
      .nullable()
      .describe("Present for pending_review and rejected submissions: why a reviewer is needed, or why it was rejected."),
    superseded_by: recordIdSchema.nullable(),
    links: z.array(recordLinkSchema).describe("The records this one rests on (claim types that link records); empty for the others."),
    lifecycle: recordLifecycleSchema,
    integrity: recordIntegritySchema.nullable().describe("Null until the record is issued."),
    created_at: timestampSchema,
  })
  .meta({
    id: "Record",
    description: "A record as its owner sees it. Claim types that link records may add fields of their own (the same ones as in the signed status).",
  });

export const recordListSchema = z
  .strictObject({
    object: z.literal("list"),
    data: z.array(recordSchema),
    has_more: z.boolean().describe("More records follow; pass the last verification_id as starting_after."),
  })
  .meta({ id: "RecordList", description: "Newest first, cursor-paginated." });

// ---- public answers --------------------------------------------------------------------

export const signedStatusSchema = z
  .looseObject({
    verification_id: recordIdSchema,
    status: recordStatusSchema,
    environment: environmentSchema,
    verified: z.boolean(),
    claim_type: z.string(),
    subject: z.string(),
    evidence_level: evidenceLevelSchema,
    issued_at: timestampSchema,
    expires_at: nullableTimestamp,
    status_changed_at: timestampSchema,
    as_of: timestampSchema.describe("When this answer was signed."),
    certificate_url: z.url(),
    signing_key_id: z.string().describe("kid of the JWKS key that signed this answer."),
    status_signature: base64url.describe(
      "Ed25519 over the RFC 8785 canonical JSON of this object without status_signature; base64url without padding.",
    ),
  })
  .meta({
    id: "SignedStatus",
    description:
      "Signed, public status. To verify: drop status_signature, canonicalize the rest (RFC 8785) and check it with the JWKS key whose kid equals signing_key_id. Claim types may add fields; they are covered by the signature.",
  });

export const signedPayloadSchema = z
  .looseObject({
    id: recordIdSchema,
    environment: environmentSchema,
    subject: z.string(),
    claim_type: z.string(),
    claim: z.string(),
    evidence_level: evidenceLevelSchema,
    evidence: z.record(z.string(), z.unknown()),
    issued_at: timestampSchema,
    valid_from: timestampSchema,
    expires_at: nullableTimestamp,
    issuer: z.url().describe("Base URL of the issuing service."),
  })
  .meta({ id: "SignedPayload", description: "Exactly what the record signature covers, as stored at issue." });

export const signatureCheckSchema = z
  .strictObject({
    verification_id: recordIdSchema,
    valid: z.boolean().describe("The payload hash and the Ed25519 signature both check out against the published key."),
    algorithm: z.literal("Ed25519"),
    canonicalization: z.literal("RFC8785"),
    signing_key_id: z.string(),
    payload_sha256: sha256Hex,
    signature: base64url,
    signed_payload: signedPayloadSchema,
    checked_at: timestampSchema,
  })
  .meta({ id: "SignatureCheck", description: "Result of re-verifying a record's stored signature." });

const jwkSchema = z
  .strictObject({
    kty: z.literal("OKP"),
    crv: z.literal("Ed25519"),
    x: base64url.describe("The 32-byte public key, base64url."),
    kid: z.string(),
    use: z.literal("sig"),
    alg: z.literal("EdDSA"),
  })
  .meta({ id: "Jwk" });

export const jwksSchema = z
  .strictObject({ keys: z.array(jwkSchema) })
  .meta({ id: "Jwks", description: "Published Ed25519 signing keys; retired keys stay listed so old signatures verify." });

// ---- account ---------------------------------------------------------------------------

const meter = z.strictObject({
  used: z.number().int().min(0),
  allowance: z.number().int().min(0),
});

export const usageSchema = z
  .strictObject({
    object: z.literal("usage"),
    period: z.string().regex(/^\d{4}-\d{2}$/).describe("Calendar month (UTC), YYYY-MM."),
    plan: z.enum(["none", "starter", "growth"]),
    live_records: meter,
    reviewed_verifications: meter,
  })
  .meta({ id: "Usage", description: "This month's live usage against the plan. Sandbox work is never counted." });

// ---- challenges ------------------------------------------------------------------------

export const domainChallengeSchema = z
  .strictObject({
    object: z.literal("domain_challenge"),
    id: domainEvidence.shape.challenge_id.describe("Send it as evidence.challenge_id of a domain_ownership record."),
    domain: z.string().describe("The normalised domain: lower case, IDN as punycode, no trailing dot."),
    token: z.string().regex(/^[A-Za-z0-9_-]+$/).describe("Random token; txt_value is built from it."),
    txt_name: z.string().describe("Where to publish the TXT record: _prs-challenge.<domain>."),
    txt_value: z.string().describe("The exact TXT value to publish: prs-verification=<token>."),
    expires_at: timestampSchema.describe("One hour after created_at; the record must be created before then."),
    created_at: timestampSchema,
  })
  .meta({
    id: "DomainChallenge",
    description: "Publish txt_value as a TXT record at txt_name, then create a domain_ownership record with this id. Single use.",
  });

export const walletChallengeSchema = z
  .strictObject({
    object: z.literal("wallet_challenge"),
    id: walletEvidence.shape.challenge_id.describe("Send it as evidence.challenge_id of a wallet_ownership record."),
    address: z.string().describe("The normalised address: EVM EIP-55 checksummed, bech32 lower case, base58 as sent."),
    network: z.enum(WALLET_NETWORKS),
    claim_type: z.enum(["wallet_ownership", "dex_control"]).describe("The claim type the challenge can prove."),
    message: z.string().describe("The exact text to sign, as UTF-8 bytes, unchanged (line breaks are \\n)."),
    expires_at: timestampSchema.describe("One hour after created_at; the record must be created before then."),
    created_at: timestampSchema,
  })
  .meta({
    id: "WalletChallenge",
    description: "Sign message with the key behind address, then create a wallet_ownership record with this id and the signature. Single use.",
  });

// ---- errors ----------------------------------------------------------------------------

/** Every error `type` of the contract, in its order. */
export const ERROR_TYPES = [
  "invalid_request_error",
  "authentication_error",
  "payment_required",
  "rate_limit_error",
  "idempotency_error",
  "conflict",
  "not_found",
  "api_error",
] as const satisfies readonly ErrorType[];

export const errorCodeSchema = z
  .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
  .meta({ id: "ErrorCode", description: "Stable, machine-readable reason." });

export const fieldErrorSchema = z
  .strictObject({
    code: errorCodeSchema,
    param: z.string().optional(),
    message: z.string(),
  })
  .meta({ id: "FieldError" });

export const errorSchema = z
  .strictObject({
    error: z.strictObject({
      type: z.enum(ERROR_TYPES),
      code: errorCodeSchema,
      message: z.string().describe("For humans; may change."),
      param: z.string().optional().describe("The offending field, e.g. 'evidence.lei' or 'records[3].claim'."),
      rows: z
        .array(z.strictObject({ index: z.number().int().min(0), errors: z.array(fieldErrorSchema) }))
        .optional()
        .describe("Row-level errors of a batch."),
      request_id: z.string().describe("Same as the Request-Id header."),
    }),
  })
  .meta({ id: "Error", description: "The one error envelope." });

// ---- batch -----------------------------------------------------------------------------

const BATCH_OUTCOMES = ["issued", "existing", "pending_review", "failed"] as const satisfies readonly BatchOutcome[];

export const batchRowResultSchema = z
  .strictObject({
    index: z.number().int().min(0).describe("The row's position in the request's records array."),
    outcome: z.enum(BATCH_OUTCOMES).describe(
      "issued: the record was issued. pending_review: accepted for a reviewer. failed: the row's check refused it (see error); " +
        "nothing was created for it. existing: on a replay of the batch's key, a row that created its record the first time.",
    ),
    verification_id: recordIdSchema.optional().describe("The record of this row; absent for failed rows."),
    status: recordStatusSchema.optional().describe("The record's status when the batch issued it (active or pending_review)."),
    certificate_url: z.url().nullable().optional().describe("The public certificate; null while pending review; absent for failed rows."),
    error: fieldErrorSchema.optional().describe("Why a failed row was refused; param is written records[i].field."),
  })
  .meta({ id: "BatchRowResult" });

const count = z.number().int().min(0);

export const batchSchema = z
  .strictObject({
    object: z.literal("batch"),
    batch_id: z.string().regex(/^bat_[0-9a-hjkmnp-tv-z]{20}$/).describe("Identifies the batch; the same on every replay of its key."),
    totals: z
      .strictObject({ issued: count, existing: count, pending_review: count, failed: count })
      .describe("How many rows ended in each outcome; they add up to the number of rows."),
    results: z.array(batchRowResultSchema).describe("One entry per row, in request order."),
  })
  .meta({ id: "Batch", description: "The answer to a batch of records." });

// ---- health ----------------------------------------------------------------------------

export const healthSchema = z
  .strictObject({
    status: z.enum(["ok", "unavailable"]),
    database: z.enum(["ok", "unreachable"]),
  })
  .meta({ id: "Health" });

export const livenessSchema = z.strictObject({ status: z.literal("ok") }).meta({ id: "Liveness" });

export const webhookSchema = z
  .strictObject({
    object: z.literal("webhook"),
    id: z.string().regex(/^wh_[0-9a-z]{20}$/),
    url: z.string().describe("The destination (https, public address)."),
    events: z.array(z.enum(SUBSCRIBABLE_EVENTS)).describe("The event types sent; all when none were chosen."),
    description: z.string().nullable(),
    status: z.enum(["enabled", "disabled"]),
    disabled_reason: z.string().nullable().describe("Why deliveries stopped (failure threshold, 410 Gone)."),
    environment: environmentSchema,
    created_at: timestampSchema,
    secret: z.string().regex(/^whsec_/).optional().describe("Standard Webhooks signing secret. Only in the answer to the creation."),
  })
  .meta({ id: "Webhook" });

export const webhookListSchema = z
  .strictObject({ object: z.literal("list"), data: z.array(webhookSchema), has_more: z.boolean() })
  .meta({ id: "WebhookList" });

export const webhookDeletedSchema = z
  .strictObject({ object: z.literal("webhook"), id: z.string(), deleted: z.literal(true) })
  .meta({ id: "WebhookDeleted" });

export const webhookTestSchema = z
  .strictObject({ object: z.literal("event"), id: z.string().regex(/^evt_/), type: z.string(), webhook_id: z.string(), created_at: timestampSchema })
  .meta({ id: "WebhookTestEvent" });

const webhookAttemptSchema = z.strictObject({
  at: timestampSchema,
  status_code: z.number().int().nullable().describe("The endpoint's HTTP status; null when no answer came."),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
});

export const webhookDeliveryListSchema = z
  .strictObject({
    object: z.literal("list"),
    data: z.array(
      z.strictObject({
        object: z.literal("webhook_delivery"),
        id: z.string(),
        event_id: z.string(),
        event_type: z.string(),
        status: z.enum(["pending", "succeeded", "failed"]),
        attempts: z.array(webhookAttemptSchema),
        next_attempt_at: timestampSchema.nullable(),
        created_at: timestampSchema,
      }),
    ),
    has_more: z.boolean(),
  })
  .meta({ id: "WebhookDeliveryList" });

// ---- mandate keys ----------------------------------------------------------------------

const mandateKeyFields = {
  object: z.literal("mandate_key"),
  key_id: z.string().regex(MANDATE_KEY_ID_RE).describe("The caller's name for the key, unique across the service."),
  algorithm: z.literal("Ed25519"),
  public_key: base64url.length(43).describe("base64url (no padding) of the 32 raw Ed25519 public-key bytes."),
  environment: environmentSchema,
  status: z.enum(["active", "revoked"]).describe("A revoked key stays published so that old mandates can still be judged."),
  created_at: timestampSchema,
  revoked_at: timestampSchema.nullable(),
};

export const mandateKeySchema = z.strictObject(mandateKeyFields).meta({ id: "MandateKey" });

export const mandateKeyListSchema = z
  .strictObject({ object: z.literal("list"), data: z.array(mandateKeySchema), has_more: z.boolean() })
  .meta({ id: "MandateKeyList" });

export const publicMandateKeySchema = z
  .strictObject({ ...mandateKeyFields, jwk: jwkSchema.describe("The same key as a JWK (kid = key_id), for JOSE libraries.") })
  .meta({ id: "PublicMandateKey", description: "A mandate key as anyone may read it; nothing about its owner." });

/** Every response schema with an id, for the OpenAPI components. */
export const RESPONSE_SCHEMAS = [
  timestampSchema,
  recordStatusSchema,
  evidenceLevelSchema,
  environmentSchema,
  historyEntrySchema,
  recordLifecycleSchema,
  recordIntegritySchema,
  recordLinkSchema,
  recordSchema,
  recordListSchema,
  signedStatusSchema,
  signedPayloadSchema,
  signatureCheckSchema,
  jwkSchema,
  jwksSchema,
  usageSchema,
  domainChallengeSchema,
  walletChallengeSchema,
  errorCodeSchema,
  fieldErrorSchema,
  errorSchema,
  batchRowResultSchema,
  batchSchema,
  healthSchema,
  livenessSchema,
  webhookSchema,
  webhookListSchema,
  webhookDeletedSchema,
  webhookTestSchema,
  webhookDeliveryListSchema,
  mandateKeySchema,
  mandateKeyListSchema,
  publicMandateKeySchema,
] as const;

// ---- compile-time checks: the schemas name exactly the fields the code produces ----------

type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Assert<T extends true> = T;
type Out<S extends z.ZodType> = NonNullable<z.output<S>>;
/** Every value fits the schema's type too (not only the key set). */
type Fits<A, B> = [A] extends [B] ? true : false;

export type _ResponseSchemaChecks = [
  Assert<SameKeys<RecordObject, typeof recordSchema.shape>>,
  Assert<SameKeys<RecordObject["links"][number], Out<typeof recordLinkSchema>>>,
  Assert<SameKeys<RecordObject["lifecycle"], Out<typeof recordLifecycleSchema>>>,
  Assert<SameKeys<RecordObject["lifecycle"]["history"][number], Out<typeof historyEntrySchema>>>,
  Assert<SameKeys<NonNullable<RecordObject["integrity"]>, Out<typeof recordIntegritySchema>>>,
  Assert<SameKeys<NonNullable<RecordObject["review"]>, Out<typeof recordSchema.shape.review>>>,
  Assert<
    SameKeys<
      ReturnType<typeof statusFields> & { signing_key_id: string; status_signature: string },
      typeof signedStatusSchema.shape
    >
  >,
  Assert<SameKeys<NonNullable<Awaited<ReturnType<typeof verifyRecordSignature>>>, Out<typeof signatureCheckSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof getUsage>>, Out<typeof usageSchema>>>,
  Assert<SameKeys<ReturnType<typeof publicJwks>["keys"][number], Out<typeof jwkSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof createDomainChallenge>>, Out<typeof domainChallengeSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof createWalletChallenge>>, Out<typeof walletChallengeSchema>>>,
  Assert<Fits<Awaited<ReturnType<typeof createDomainChallenge>>, Out<typeof domainChallengeSchema>>>,
  Assert<Fits<Awaited<ReturnType<typeof createWalletChallenge>>, Out<typeof walletChallengeSchema>>>,
  Assert<SameKeys<ReturnType<typeof errorBody>["error"], Out<typeof errorSchema>["error"]>>,
  Assert<SameKeys<Awaited<ReturnType<typeof createWebhook>>, Out<typeof webhookSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof listDeliveries>>["data"][number], Out<typeof webhookDeliveryListSchema>["data"][number]>>,
  Assert<SameKeys<Awaited<ReturnType<typeof sendTestEvent>>, Out<typeof webhookTestSchema>>>,
  Assert<SameKeys<ReturnType<typeof serializeMandateKey>, Out<typeof mandateKeySchema>>>,
  Assert<Fits<ReturnType<typeof serializeMandateKey>, Out<typeof mandateKeySchema>>>,
  Assert<SameKeys<ReturnType<typeof serializePublicMandateKey>, Out<typeof publicMandateKeySchema>>>,
  Assert<SameKeys<ReturnType<typeof serializePublicMandateKey>["jwk"], Out<typeof jwkSchema>>>,
  Assert<SameKeys<BatchAnswer, Out<typeof batchSchema>>>,
  Assert<SameKeys<BatchAnswer["results"][number], Out<typeof batchRowResultSchema>>>,
  Assert<Fits<BatchAnswer, Out<typeof batchSchema>>>,
  // every outcome of lib/records/batch-answer.ts is listed
  Assert<[Exclude<BatchOutcome, (typeof BATCH_OUTCOMES)[number]>] extends [never] ? true : false>,
  // every ErrorType of lib/http/errors.ts is listed
  Assert<[Exclude<ErrorType, (typeof ERROR_TYPES)[number]>] extends [never] ? true : false>,
];
