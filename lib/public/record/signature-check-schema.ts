import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { base64url, sha256Hex, timestampSchema } from "@/lib/http/response-primitives";
import { recordIdSchema } from "@/lib/record-model/schemas";
import { signedPayloadSchema } from "./signed-payload-schema";
import type { verifyRecordSignature } from "./verify-record-signature";

/** The public signature check: the contract of verifyRecordSignature (./verify-record-signature). */
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

export type _SignatureCheckSchemaChecks = [
  Assert<SameKeys<NonNullable<Awaited<ReturnType<typeof verifyRecordSignature>>>, Out<typeof signatureCheckSchema>>>,
];
