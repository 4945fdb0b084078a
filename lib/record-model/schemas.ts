import { EVIDENCE_LEVELS } from "@/drizzle/schema";
import { FILE_ID_RE } from "@/lib/ids";
import { z } from "zod";

/** At most this many documents go with one submission. */
export const MAX_SUBMISSION_DOCUMENTS = 10;

export { EVIDENCE_LEVELS };
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];
export const LIFECYCLE_OPERATIONS = ["suspend", "reinstate", "revoke", "expire", "supersede"] as const;
export type LifecycleOperation = (typeof LIFECYCLE_OPERATIONS)[number];

/** No control characters in one-line or free-text fields (tabs and newlines allowed in claims). */
export const noControl = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
export const NO_CONTROL = "must not contain control characters.";
/**
 * Bidi controls (embeddings, overrides, isolates, marks) and invisible characters (zero-width
 * space, joiners, word joiner, BOM): text shown on a certificate must read as what was signed.
 */
export const noHiddenText = /^[^\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]*$/;
export const NO_HIDDEN =
  "must not contain bidirectional controls or zero-width characters (U+061C, U+200B-U+200F, U+202A-U+202E, U+2060-U+206F, U+FEFF): " +
  "the certificate must read exactly as what was signed.";
const CLAIM_TYPE_RE = /^[a-z][a-z0-9_]{1,63}$/;
const CLAIM_TYPE_FORMAT = "must be snake_case: a lower-case letter, then letters, digits or underscores.";
const timestamp = z.iso.datetime({ offset: true });

export const recordIdSchema = z
  .string()
  .regex(/^PRS-[0-9A-HJKMNP-TV-Z]{20}$/, "must be a record id as its certificate shows it: PRS- and 20 capital letters and digits.")
  .meta({ id: "RecordId", description: "A record's verification id: 'PRS-' and 20 characters of Crockford base32." });

export const recordCreateSchema = z
  .strictObject({
    subject: z.string().min(1).max(300).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).describe("Who or what the claim is about."),
    claim_type: z
      .string()
      .min(1)
      .max(64)
      .regex(CLAIM_TYPE_RE, CLAIM_TYPE_FORMAT)
      .describe("A claim type from the spec's table, or any other snake_case type (reviewed by a person)."),
    claim: z.string().min(1).max(2000).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).describe("Free-text statement of the claim."),
    evidence_level: z.enum(EVIDENCE_LEVELS).optional(),
    visibility: z
      .enum(["public", "private"])
      .optional()
      .describe("Defaults to private. Sandbox records are always private: a sandbox request asking for public is stored and answered as private."),
    evidence: z.record(z.string(), z.unknown()).optional().describe("Claim-type specific; at most 32 KiB."),
    source_name: z.string().min(1).max(200).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).optional(),
    source_url: z.url({ protocol: /^https?$/ }).max(2000).optional(),
    checked_at: timestamp.optional(),
    expires_at: timestamp.optional().describe("End of validity; default one year after issue, at most five years."),
    documents: z
      .array(z.string().regex(FILE_ID_RE, "must be a file id (file_…) from POST /api/v1/files."))
      .min(1)
      .max(MAX_SUBMISSION_DOCUMENTS)
      .optional()
      .describe(
        "Documents for the reviewer (a bank letter for an IBAN payee, a licence, a registry extract): ids of this account's files from POST /api/v1/files. Kept with the submission privately — never public, never signed — and shown to the reviewer inline; deleted 90 days after the decision.",
      ),
  })
  .meta({ id: "RecordCreate" });
export type RecordCreateInput = z.infer<typeof recordCreateSchema>;

export const BATCH_MAX_RECORDS = 250;

export const batchCreateSchema = z
  .strictObject({
    records: z
      .array(recordCreateSchema)
      .min(1)
      .max(BATCH_MAX_RECORDS)
      .describe(
        "1-250 records, each exactly what POST /api/v1/records takes. Every row is validated before anything is issued; " +
          "more than 250 is 422 batch_too_large, any invalid row 422 invalid_batch with error.rows.",
      ),
  })
  .meta({ id: "BatchCreate" });

/**
 * How the handler reads batchCreateSchema: the envelope first (strict, `records` an array),
 * then the row count, then each row on its own with recordCreateSchema (validateRecordInput)
 * so that every invalid row is reported, not only the first.
 */
export const batchEnvelopeSchema = batchCreateSchema.extend({ records: z.array(z.unknown()) });

export const lifecycleSchema = z
  .strictObject({
    operation: z.enum(LIFECYCLE_OPERATIONS).describe("The transition to apply; see the lifecycle table."),
    reason: z.string().trim().min(3).max(500).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN)
      .describe("Why, 3-500 characters, without control, bidi or zero-width characters; kept in the record's history and shown on the certificate."),
    superseded_by: recordIdSchema.optional().describe("Required with 'supersede' (an active record of the same account, environment and claim_type); not allowed otherwise."),
  })
  .meta({ id: "LifecycleRequest" });
export type LifecycleInput = z.infer<typeof lifecycleSchema>;

export const listRecordsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size, 1-100."),
  starting_after: recordIdSchema.optional().describe("Cursor: the last verification_id of the previous page."),
  status: z
    .enum(["pending_review", "active", "suspended", "revoked", "expired", "superseded", "rejected"])
    .optional()
    .describe("Only records in this stored status."),
  claim_type: z.string().max(64).regex(CLAIM_TYPE_RE, CLAIM_TYPE_FORMAT).optional().describe("Only records of this claim type."),
});
