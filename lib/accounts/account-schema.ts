import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { environmentSchema } from "@/lib/http/response-primitives";
import type { AccountProfile, getAccount } from "./account-profile";

/** A verified organisation as every public answer names it (CONTRACT "Trust model"). */
export const organisationSchema = z
  .strictObject({
    legal_name: z.string().describe("The entity's legal name: from the LEI register, or from documents a reviewer checked."),
    lei: z.string().nullable().describe("The entity's LEI; null when it was verified from documents."),
    jurisdiction: z.string().nullable(),
    basis: z.enum(["lei_register", "documents"]).describe("What the legal name rests on."),
    status: z.enum(["verified", "lapsed"]).describe("`lapsed`: the LEI register no longer lists the entity or its registration as active."),
    verified_at: z.string().describe("When a reviewer verified the organisation (RFC 3339)."),
    domains: z.array(z.string()).describe("The account's proved domains a reviewer confirmed belong to the entity (still proved now)."),
  })
  .meta({ id: "Organisation", description: "A verified organisation." });

/** Who made a statement: the contract of AccountProfile (./account-profile). */
export const accountProfileSchema = z
  .strictObject({
    name: z.string().nullable().describe("The name the account goes by: a verified organisation's legal name, else the account's own word (not checked); null: an unnamed account."),
    name_verified: z.boolean().describe("True only while the account is a verified organisation and `name` is its legal name. A name with false is self-declared and must be shown as such."),
    organisation: organisationSchema.nullable().describe("The legal entity a Proof Records reviewer confirmed the account acts for; null: not a verified organisation."),
    verified_domains: z.array(z.string()).describe("Domains the account proved: its active live domain_ownership records."),
  })
  .meta({ id: "AccountProfile", description: "The account that made the statement." });

/** GET and PATCH /api/v1/account: the contract of getAccount (./account-profile). */
export const accountSchema = z
  .strictObject({
    object: z.literal("account"),
    id: z.string().describe("The account's id: what a mandate signature names as account_id."),
    name: accountProfileSchema.shape.name,
    name_verified: accountProfileSchema.shape.name_verified,
    organisation: accountProfileSchema.shape.organisation,
    verified_domains: accountProfileSchema.shape.verified_domains,
    plan: z.enum(["none", "starter", "growth"]),
    environment: environmentSchema.describe("The environment of the API key that asked."),
  })
  .meta({ id: "Account", description: "The account behind the API key, as certificates name it." });

export type _AccountSchemaChecks = [
  Assert<SameKeys<AccountProfile, Out<typeof accountProfileSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof getAccount>>, Out<typeof accountSchema>>>,
];
