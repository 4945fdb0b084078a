import { z } from "zod";
import { accountProfileSchema } from "@/lib/accounts/account-schema";
import type { Assert, SameKeys } from "@/lib/http/response-checks";
import {
  base64url, environmentSchema, evidenceLevelSchema, nullableTimestamp, recordStatusSchema, timestampSchema,
} from "@/lib/http/response-primitives";
import { recordIdSchema } from "./schemas";
import type { statusFields } from "./signed-status";

/** The signed, public status: the contract of statusFields (./signed-status) plus its signature. */

export const signedStatusSchema = z
  .looseObject({
    verification_id: recordIdSchema,
    status: recordStatusSchema,
    environment: environmentSchema,
    verified: z.boolean(),
    account: accountProfileSchema.describe("Who made the statement: the issuing account's name (its own word) and the domains it proved."),
    claim_type: z.string(),
    subject: z.string(),
    websites: z
      .array(z.string())
      .describe("The websites (host names) this record speaks for; the embed badge is green only on them and their subdomains. Empty when it names none."),
    evidence_level: evidenceLevelSchema,
    issued_at: timestampSchema,
    expires_at: nullableTimestamp,
    status_changed_at: timestampSchema,
    as_of: timestampSchema.describe("When this answer was signed."),
    at: timestampSchema
      .optional()
      .describe("Only in an answer to `?at=`: the past instant whose status this is (status and status_changed_at as they stood then)."),
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

export type _SignedStatusSchemaChecks = [
  Assert<
    SameKeys<
      ReturnType<typeof statusFields> & { signing_key_id: string; status_signature: string },
      typeof signedStatusSchema.shape
    >
  >,
];
