import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { base64url, evidenceLevelSchema, timestampSchema } from "@/lib/http/response-primitives";
import { takenDownSchema } from "@/lib/public/lookup/lookup-schema";
import { recordIdSchema } from "@/lib/record-model/schemas";
import { VERDICTS, type checkParts, type PartAnswer } from "./answer-check";

const verdictSchema = z.enum(VERDICTS);

/** The signed answer of GET /api/v1/check: the contract of checkParts (./answer-check) plus its signature. */

export const checkPartSchema = z
  .strictObject({
    given: z.string().describe("The part as it was sent."),
    normalized: z.string().nullable().describe("Its normal form; null when it is not a valid value of its kind."),
    verdict: verdictSchema.describe(
      "match: on record, checked and standing, for a verified organisation whose legal name (or LEI) is the operator asked (with no operator given: for a verified organisation); close_match: the same, but the name differs slightly — on_record_for gives the name on record; mismatch: on record for a verified organisation with ANOTHER name, named in on_record_for — or, when the operator asked is one verified organisation, on record only through other accounts (name_verified false; on_record_for is such an account's own word, perhaps the organisation's very name); unverified_operator: on record only through accounts that are not verified organisations (on_record_for is their own, unverified word — never reassuring); not_on_record.",
    ),
    on_record_for: z.string().nullable().describe("The verified organisation's legal name the part is on record for; with unverified_operator, the self-declared name of the account (name_verified false)."),
    name_verified: z.boolean().describe("Whether on_record_for is a verified organisation's legal name; false: the account's own word."),
    lei: z.string().nullable().describe("The verified organisation's LEI, when it has one."),
    evidence_level: evidenceLevelSchema.nullable(),
    verification_id: recordIdSchema.nullable(),
    certificate_url: z.url().nullable(),
    shared_name: z.boolean().describe("More than one verified organisation holds the operator name asked, so a bare name cannot say which one: the operator part, and a website or payee on record for one of them, are close_match at best. Give the LEI to tell them apart."),
    taken_down: takenDownSchema.nullable().describe("A live public record holding this value that Proof Records staff revoked (the latest), or null. With one the part is mismatch — \"Proof Records took a record with this payee down on ‹date›: ‹reason›. Do not pay.\" — unless a verified organisation vouches for the value now."),
    as_of: timestampSchema,
  })
  .meta({ id: "CheckPart", description: "The verdict for one part of a check." });

export const checkAnswerSchema = z
  .strictObject({
    operator: z.string().nullable().describe("The operator asked about, or null."),
    overall: verdictSchema.describe("What the answer as a whole says: match only when every part given is match for the same verified organisation (parts on record for different organisations are mismatch); otherwise the worst verdict of the parts (mismatch, then not_on_record, unverified_operator, close_match, match)."),
    summary: z.string().describe("The answer in one sentence, as /check shows it: names who the parts are on record for; with no operator given it never says \"everything you entered\"."),
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
