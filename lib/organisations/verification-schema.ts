import { z } from "zod";
import { organisationSchema } from "@/lib/accounts/account-schema";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { nullableTimestamp, timestampSchema } from "@/lib/http/response-primitives";
import type { getVerificationState, serializeVerification } from "./apply-for-verification";

export const registerAnswerSchema = z
  .strictObject({
    result: z.enum(["found", "not_found", "unreachable"]).describe("`unreachable`: the register did not answer; a reviewer checks it instead."),
    legal_name: z.string().optional(),
    jurisdiction: z.string().nullable().optional(),
    registration_status: z.string().optional().describe("ISSUED, LAPSED, RETIRED, … as the register spells it."),
    entity_status: z.string().optional().describe("ACTIVE or INACTIVE."),
    next_renewal_date: z.string().nullable().optional(),
    reason: z.string().optional(),
    checked_at: timestampSchema,
  })
  .meta({ id: "LeiRegisterAnswer", description: "What the LEI register answered about the application's LEI when it was made (or approved)." });

export const organisationVerificationSchema = z
  .strictObject({
    object: z.literal("organisation_verification"),
    id: z.string().describe("`orv_…`"),
    status: z.enum(["pending", "approved", "rejected", "withdrawn"]),
    lei: z.string().nullable().describe("null: the entity (or sole trader) is verified from documents."),
    applicant: z.strictObject({ name: z.string(), role: z.string(), email: z.string() }),
    documents: z.array(z.strictObject({
      id: z.string(), filename: z.string(), content_type: z.enum(["application/pdf", "image/png", "image/jpeg"]), sha256: z.string(),
    })).describe("The files attached (metadata; a deleted file is left out)."),
    register: registerAnswerSchema.nullable().describe("The LEI register's answer; null without an LEI."),
    created_at: timestampSchema,
    decided_at: nullableTimestamp,
    reason: z.string().nullable().describe("Why it was rejected (shown to the applicant)."),
  })
  .meta({ id: "OrganisationVerification", description: "An application to be a verified organisation, and the reviewer's decision on it." });

export const organisationVerificationStateSchema = z
  .strictObject({
    object: z.literal("organisation_verification_state"),
    application: organisationVerificationSchema.nullable().describe("The account's latest application; null when it never applied."),
    organisation: organisationSchema.nullable().describe("The account's verified organisation now (status `lapsed` after a failed LEI re-check)."),
    name_verified: z.boolean(),
  })
  .meta({ id: "OrganisationVerificationState", description: "The account's latest application and its verified organisation." });

export type _VerificationSchemaChecks = [
  Assert<SameKeys<ReturnType<typeof serializeVerification>, Out<typeof organisationVerificationSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof getVerificationState>>, Out<typeof organisationVerificationStateSchema>>>,
];
