import { z } from "zod";
import { accountProfileSchema } from "@/lib/accounts/account-schema";
import type { Assert, SameKeys } from "@/lib/http/response-checks";
import {
  base64url, environmentSchema, evidenceLevelSchema, nullableTimestamp, recordStatusSchema, timestampSchema,
} from "@/lib/http/response-primitives";
import { checksSchema } from "@/lib/trust/check-schema";
import { recordIdSchema } from "@/lib/record-model/schemas";
import type { statusFields } from "./signed-status";

/** The signed, public status: the contract of statusFields (./signed-status) plus its signature. */

export const logEntrySchema = z.object({
  index: z.number().int().nonnegative().describe("The entry's index in the log."),
  leaf: z.string().describe("The entry: RFC 8785 canonical JSON of {verification_id, event, status, at, payload_sha256, environment}."),
  leaf_hash: z.string().regex(/^[0-9a-f]{64}$/).describe("SHA-256(0x00 ‖ leaf), hex (RFC 9162)."),
  tree_size: z.number().int().positive().describe("The size of the tree of `checkpoint`, which the proof is against."),
  root_hash: z.string().describe("That tree's root hash, base64 (as in the checkpoint)."),
  inclusion_proof: z.array(z.string().regex(/^[0-9a-f]{64}$/)).describe("The RFC 9162 audit path, hex, leaf side first."),
  checkpoint: z.string().describe("The C2SP signed note of that tree size, signed with the log key served at /log/key."),
}).meta({ id: "LogEntryProof" });

export const signedStatusSchema = z
  .looseObject({
    verification_id: recordIdSchema,
    status: recordStatusSchema,
    environment: environmentSchema,
    verified: z.boolean(),
    account: accountProfileSchema.describe("Who made the statement: the issuing account's name (self-declared unless `name_verified`), its verified organisation and the domains it proved."),
    claim_type: z.string(),
    subject: z.string(),
    websites: z
      .array(z.string())
      .describe("The websites (host names) this record speaks for. Empty when it names none."),
    display: z
      .object({
        subject: z.string().describe("The subject as a page shows it: a domain whose labels are mixed-script or confusable (Unicode TR39) is followed by its A-label, `аррӏе.com (xn--80ak6aa92e.com)`; anything else as it is."),
        websites: z.array(z.string()).describe("`websites` as a page shows them, by the same rule."),
      })
      .describe("How a public page (the embed badge included) shows the subject and websites, decided by the service: show these rather than the raw values."),
    covers_hosts: z
      .array(z.string())
      .describe("The exact hosts (A-labels) a page may show this record's embed badge green on: the hosts it proved or names, as proved, and, while its account is a verified organisation, the organisation's proved domains. A proof of `x` covers `x` and `www.x`; a proof of `www.x` covers `www.x` only. Empty when the record is not verified or names no website: its badge is then neutral."),
    evidence_level: evidenceLevelSchema,
    checks: checksSchema,
    issued_at: timestampSchema,
    expires_at: nullableTimestamp,
    status_changed_at: timestampSchema,
    as_of: timestampSchema.describe("When this answer was signed."),
    at: timestampSchema
      .optional()
      .describe("Only in an answer to `?at=`: the past instant whose status this is (status and status_changed_at as they stood then)."),
    certificate_url: z.url(),
    transparency_log: logEntrySchema
      .nullable()
      .optional()
      .describe(
        "Live records (absent from answers to `?at=`): the record's latest entry in the transparency log with its inclusion proof against the checkpoint beside it (docs/verify.md). Null for sandbox records, which are not logged, and for the few seconds until a checkpoint covers the latest change.",
      ),
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
      ReturnType<typeof statusFields> & { signing_key_id: string; status_signature: string; transparency_log?: unknown },
      typeof signedStatusSchema.shape
    >
  >,
];
