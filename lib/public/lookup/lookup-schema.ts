import { z } from "zod";
import { accountProfileSchema } from "@/lib/accounts/account-schema";
import type { Assert, Fits, Out, SameKeys } from "@/lib/http/response-checks";
import { base64url, evidenceLevelSchema, timestampSchema } from "@/lib/http/response-primitives";
import { recordIdSchema } from "@/lib/record-model/schemas";
import type { lookupFields } from "./answer-lookup";
import { LOOKUP_KINDS } from "@/lib/format/normalize";

/** A take-down (lib/trust/taken-down.ts), as lookup and /check answers carry it. */
export const takenDownSchema = z
  .strictObject({
    verification_id: recordIdSchema.describe("The record staff revoked."),
    at: timestampSchema.describe("When they revoked it."),
    reason: z.string().describe("The public reason they gave (as on its certificate)."),
    certificate_url: z.url(),
    kind: z.string().describe("What the revoked record held: the kind of value (`website` also for a page link on that site, `iban`, `wallet`, `listing_url`, …)."),
  })
  .meta({ id: "TakenDown", description: "A record holding the value that Proof Records staff took down." });

/** The signed answer of GET /api/v1/lookup: the contract of lookupFields (./answer-lookup) plus its signature. */

export const lookupMatchSchema = z
  .strictObject({
    verification_id: recordIdSchema,
    claim_type: z.string(),
    subject: z.string(),
    status: z.literal("active").describe("Only active records match."),
    evidence_level: evidenceLevelSchema,
    matched_field: z.string().describe("Where in the record the value is: `subject`, or an evidence field such as `evidence.domain`."),
    certificate_url: z.url(),
    account: accountProfileSchema.describe("Who made the statement: the issuing account's name (self-declared unless `name_verified`), its verified organisation and the domains it proved."),
  })
  .meta({ id: "LookupMatch", description: "A live, public, active record that holds the value." });

export const lookupAnswerSchema = z
  .strictObject({
    query: z.string().describe("`q` as it was sent."),
    normalized: z.string().describe("The value looked up: `q` in the normal form of its kind."),
    type: z.enum(LOOKUP_KINDS).describe("The kind of value: given as `type`, or detected from the shape of `q`."),
    result: z
      .enum(["verified", "checked", "attested", "no_match"])
      .describe(
        "verified: at least one match that was checked (source_verified or evidence_verified), still stands (every record it rests on is active) and whose account is a verified organisation; checked: checked, standing matches, but no account behind them is a verified organisation (their names are self-declared); attested: matches, all only stated by their accounts (participant_attested); no_match: none.",
      ),
    matches: z.array(lookupMatchSchema).max(20).describe("The strongest evidence first, then the newest; at most 20."),
    taken_down: takenDownSchema.nullable().describe("A live public record holding this value that Proof Records staff revoked (the latest), or null: a warning that stays after the record is gone — \"Proof Records took a record with this value down on ‹date›: ‹reason›\"."),
    as_of: timestampSchema.describe("When this answer was signed."),
    signing_key_id: z.string().describe("kid of the JWKS key that signed this answer."),
    signature: base64url.describe("Ed25519 over the RFC 8785 canonical JSON of this object without signature; base64url without padding."),
  })
  .meta({
    id: "LookupAnswer",
    description:
      "Signed lookup answer. To verify: drop signature, canonicalize the rest (RFC 8785) and check it with the JWKS key whose kid equals signing_key_id.",
  });

type Fields = ReturnType<typeof lookupFields>;

export type _LookupSchemaChecks = [
  Assert<SameKeys<Fields & { signing_key_id: string; signature: string }, Out<typeof lookupAnswerSchema>>>,
  Assert<SameKeys<Fields["matches"][number], Out<typeof lookupMatchSchema>>>,
  Assert<Fits<Fields & { signing_key_id: string; signature: string }, Out<typeof lookupAnswerSchema>>>,
];
