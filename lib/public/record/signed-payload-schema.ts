import { z } from "zod";
import { environmentSchema, evidenceLevelSchema, nullableTimestamp, timestampSchema } from "@/lib/http/response-primitives";
import { checksSchema } from "@/lib/trust/check-schema";
import { recordIdSchema } from "@/lib/record-model/schemas";

/** What a record's signature covers: the contract of buildSignedPayload (./signed-payload). */
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
    account: z
      .strictObject({ name: z.string().nullable().describe("The issuing account's organisation name at issue; null when it had set none.") })
      .optional()
      .describe("Who made the statement. Absent from records issued before accounts had names."),
    checks: checksSchema.optional().describe("What was checked, by whom. Absent from records issued before checks were signed."),
    issuer: z.url().describe("Base URL of the issuing service."),
  })
  .meta({ id: "SignedPayload", description: "Exactly what the record signature covers, as stored at issue." });
