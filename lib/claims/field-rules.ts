import type { z } from "zod";
import type { FieldError } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/validation";
import type { RecordCreateInput } from "@/lib/record-model/schemas";
import type { CheckOutcome, ClaimContext } from "./types";

const SOURCE_FIELDS = ["source_name", "source_url", "checked_at"] as const;

/** Source fields only belong to claim types reviewed against a named source. */
export function refuseSourceFields(input: RecordCreateInput, claimType: string): FieldError | null {
  const given = SOURCE_FIELDS.find((f) => input[f] !== undefined);
  return given
    ? {
        code: "field_not_allowed",
        param: given,
        message: `'${given}' is not used by claim_type '${claimType}'; a source cannot raise its evidence level.`,
      }
    : null;
}

export function onlyLevels(input: RecordCreateInput, allowed: readonly string[], claimType: string): FieldError | null {
  if (input.evidence_level === undefined || allowed.includes(input.evidence_level)) return null;
  return {
    code: "evidence_level_not_allowed",
    param: "evidence_level",
    message: `claim_type '${claimType}' can be issued at ${allowed.join(" or ")} only; the service will not state more than it checked.`,
  };
}

/**
 * A claim type checked against its own evidence (a challenge): the evidence must match its
 * schema, no source fields, and only the levels the check can reach.
 */
export function evidenceRules(input: RecordCreateInput, claimType: string, schema: z.ZodType, levels: readonly string[]): FieldError | null {
  const evidence = input.evidence ?? {};
  const parsed = schema.safeParse(evidence);
  if (!parsed.success) return fieldErrors(parsed.error, evidence, "evidence")[0]!;
  return refuseSourceFields(input, claimType) ?? onlyLevels(input, levels, claimType);
}

/**
 * A check that receives the request's evidence parsed by the type's schema — typed, no casts.
 * The pipeline runs `request.validate` (which checks the same schema) first, so the parse succeeds.
 */
export function withEvidence<S extends z.ZodType>(
  schema: S,
  check: (input: RecordCreateInput, evidence: z.output<S>, ctx: ClaimContext) => Promise<CheckOutcome>,
) {
  return (input: RecordCreateInput, ctx: ClaimContext) => check(input, schema.parse(input.evidence ?? {}), ctx);
}
