import { z } from "zod";
import type { Assert, Out, SameKeys } from "@/lib/http/response-checks";
import type { Check } from "./checks";

/** One entry of `checks` (CONTRACT "What was checked"): the contract of Check (./checks). */
export const checkSchema = z
  .strictObject({
    fact: z.string().describe("What was established, e.g. `domain_control`, `lei_active`, `transaction`, `statement`."),
    by: z.enum(["source", "signature", "reviewer", "account"]).describe(
      "`source`: the service asked the named source itself; `signature`: the service verified a signature; `reviewer`: a Proof Records reviewer confirmed it; `account`: only the account said so.",
    ),
    source: z.string().optional().describe("The source asked, e.g. `DNS TXT _prs-challenge.example.com`, `GLEIF LEI register`."),
    at: z.string().describe("When it was checked (RFC 3339): the record's issue."),
  })
  .meta({ id: "Check", description: "A fact the record rests on, and who checked it." });

export const checksSchema = z.array(checkSchema).describe("What was checked, by whom, on what. Empty for a submission not yet issued.");

export type _CheckSchemaChecks = [Assert<SameKeys<Check, Out<typeof checkSchema>>>];
