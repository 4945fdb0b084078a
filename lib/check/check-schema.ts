import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { base64url, evidenceLevelSchema, timestampSchema } from "@/lib/http/response-primitives";
import { recordIdSchema } from "@/lib/records/schemas";
import type { checkParts, PartAnswer } from "./answer-check";

/** The signed answer of GET /api/v1/check: the contract of checkParts (./answer-check) plus its signature. */

export const checkPartSchema = z
  .strictObject({
    given: z.string().describe("The part as it was sent."),
    normalized: z.string().nullable().describe("Its normal form; null when it is not a valid value of its kind."),
    verdict: z.enum(["match", "mismatch", "not_on_record"])
      .describe("match: on record for this operator (or, with no operator given, on record); mismatch: on record for ANOTHER operator, named in on_record_for; not_on_record."),
    on_record_for: z.string().nullable().describe("Whom the record says it belongs to: a listing's operator, else the issuing account's name."),
    evidence_level: evidenceLevelSchema.nullable(),
    verification_id: recordIdSchema.nullable(),
    certificate_url: z.url().nullable(),
    as_of: timestampSchema,
  })
  .meta({ id: "CheckPart", description: "The verdict for one part of a check." });

export const checkAnswerSchema = z
  .strictObject({
    operator: z.string().nullable().describe("The operator asked about, or null."),
    parts: z.strictObject({ operator: checkPartSchema.optional(), website: checkPartSchema.optional(), payee: checkPartSchema.optional() })
      .describe("One verdict per part given."),
    as_of: timestampSchema.describe("When this answer was signed."),
    signing_key_id: z.string().describe("kid of the JWKS key that signed this answer."),
    signature: base64url.describe("Ed25519 over the RFC 8785 canonical JSON of this object without signature; base64url without padding."),
  })
  .meta({ id: "CheckAnswer", description: "Signed check answer; verify it as the signed status (drop signature, RFC 8785, the JWKS key signing_key_id)." });

type Fields = Awaited<ReturnType<typeof checkParts>>;
export type _CheckSchemaChecks = [
  Assert<SameKeys<Fields & { signing_key_id: string; signature: string }, Out<typeof checkAnswerSchema>>>,
  Assert<SameKeys<PartAnswer, Out<typeof checkPartSchema>>>,
];
