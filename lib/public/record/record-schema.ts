import { z } from "zod";
import { accountProfileSchema } from "@/lib/accounts/account-schema";
import { checksSchema } from "@/lib/trust/check-schema";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import {
  base64url, environmentSchema, evidenceLevelSchema, nullableTimestamp, recordStatusSchema, sha256Hex, timestampSchema,
} from "@/lib/http/response-primitives";
import { recordIdSchema } from "@/lib/record-model/schemas";
import type { RecordObject } from "./serialize-record";

/** A record as its owner sees it: the contract of serializeRecord (./serialize-record). */

const urlOrNull = (what: string) => z.url().nullable().describe(`${what}; null until the record is issued.`);

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
    history: z.array(historyEntrySchema).describe(
      "The latest transitions (at most 50), oldest first. Immutable. Older ones: GET /api/v1/records/{id}/history?before={history_before}.",
    ),
    history_count: z.number().int().min(0).describe("How many transitions the record's whole history holds; `history` is its latest part."),
    history_before: z.number().int().min(1).nullable().describe(
      "Cursor for the transitions before those in `history`: pass it as `before` to GET /api/v1/records/{id}/history. Null when `history` is the whole history.",
    ),
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
    account: accountProfileSchema,
    verified: z.boolean().describe("True only for live, active records at source_verified or evidence_verified."),
    claim_type: z.string(),
    subject: z.string(),
    websites: z.array(z.string()).describe("The websites (host names) this record speaks for."),
    claim: z.string(),
    evidence_level: evidenceLevelSchema.nullable().describe("Null until the record is issued (pending_review, rejected); the level it would issue at is review.evidence_level."),
    visibility: z.enum(["public", "private"]),
    evidence: z.record(z.string(), z.unknown()).describe("The public part of the evidence."),
    checks: checksSchema,
    certificate_url: urlOrNull("Public certificate page"),
    qr_url: urlOrNull("QR code (SVG; ?format=png for PNG)"),
    signature_url: urlOrNull("Public signature check"),
    status_url: urlOrNull("Public signed status"),
    review: z
      .strictObject({
        reason: z.string().nullable().describe("Why a reviewer is needed, or why the submission was rejected."),
        evidence_level: evidenceLevelSchema.describe("The level the record is issued at once a reviewer confirms it (for a rejected one: would have been)."),
      })
      .nullable()
      .describe("Present for pending_review and rejected submissions; null once issued."),
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

/** The schemas name exactly the fields serializeRecord produces. */
export type _RecordSchemaChecks = [
  Assert<SameKeys<RecordObject, typeof recordSchema.shape>>,
  Assert<SameKeys<RecordObject["links"][number], Out<typeof recordLinkSchema>>>,
  Assert<SameKeys<RecordObject["lifecycle"], Out<typeof recordLifecycleSchema>>>,
  Assert<SameKeys<RecordObject["lifecycle"]["history"][number], Out<typeof historyEntrySchema>>>,
  Assert<SameKeys<NonNullable<RecordObject["integrity"]>, Out<typeof recordIntegritySchema>>>,
  Assert<SameKeys<NonNullable<RecordObject["review"]>, Out<typeof recordSchema.shape.review>>>,
];
