import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import { environmentSchema } from "@/lib/http/response-primitives";
import type { AccountProfile, getAccount } from "./account-profile";

/** Who made a statement: the contract of AccountProfile (./account-profile). */
export const accountProfileSchema = z
  .strictObject({
    name: z.string().nullable().describe("The organisation name the account set (its own word, not checked); null: an unnamed account."),
    verified_domains: z.array(z.string()).describe("Domains the account proved: its active live domain_ownership records."),
  })
  .meta({ id: "AccountProfile", description: "The account that made the statement." });

/** GET and PATCH /api/v1/account: the contract of getAccount (./account-profile). */
export const accountSchema = z
  .strictObject({
    object: z.literal("account"),
    id: z.string().describe("The account's id: what a mandate signature names as account_id."),
    name: accountProfileSchema.shape.name,
    verified_domains: accountProfileSchema.shape.verified_domains,
    plan: z.enum(["none", "starter", "growth"]),
    environment: environmentSchema.describe("The environment of the API key that asked."),
  })
  .meta({ id: "Account", description: "The account behind the API key, as certificates name it." });

export type _AccountSchemaChecks = [
  Assert<SameKeys<AccountProfile, Out<typeof accountProfileSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof getAccount>>, Out<typeof accountSchema>>>,
];
