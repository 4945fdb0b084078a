import { z } from "zod";
import { challengeClaimTypes } from "@/lib/claims/registry";
import { DOMAIN_CHALLENGE_ID_RE, WALLET_CHALLENGE_ID_RE } from "@/lib/ids";
import type { Assert, Fits, Out, SameKeys } from "@/lib/http/response-checks";
import { timestampSchema } from "@/lib/http/response-primitives";
import { WALLET_NETWORKS } from "@/lib/proofs/wallet-address";
import type { createDomainChallenge, createWalletChallenge } from "./challenges";

/** Domain and wallet challenges: the contract of createDomainChallenge / createWalletChallenge (./challenges). */

export const domainChallengeSchema = z
  .strictObject({
    object: z.literal("domain_challenge"),
    id: z.string().regex(DOMAIN_CHALLENGE_ID_RE).describe("Send it as evidence.challenge_id of a domain_ownership record."),
    domain: z.string().describe("The normalised domain: lower case, IDN as punycode, no trailing dot."),
    token: z.string().regex(/^[A-Za-z0-9_-]+$/).describe("Random token; txt_value is built from it."),
    txt_name: z.string().describe("Where to publish the TXT record: _prs-challenge.<domain>."),
    txt_value: z.string().describe("The exact TXT value to publish: prs-verification=<token>."),
    expires_at: timestampSchema.describe("One hour after created_at; the record must be created before then."),
    created_at: timestampSchema,
  })
  .meta({
    id: "DomainChallenge",
    description: "Publish txt_value as a TXT record at txt_name, then create a domain_ownership record with this id. Single use.",
  });

export const walletChallengeSchema = z
  .strictObject({
    object: z.literal("wallet_challenge"),
    id: z.string().regex(WALLET_CHALLENGE_ID_RE).describe("Send it as evidence.challenge_id of a wallet_ownership record."),
    address: z.string().describe("The normalised address: EVM EIP-55 checksummed, bech32 lower case, base58 as sent."),
    network: z.enum(WALLET_NETWORKS),
    claim_type: z.enum(challengeClaimTypes("wallet")).describe("The claim type the challenge can prove."),
    message: z.string().describe("The exact text to sign, as UTF-8 bytes, unchanged (line breaks are \\n)."),
    expires_at: timestampSchema.describe("One hour after created_at; the record must be created before then."),
    created_at: timestampSchema,
  })
  .meta({
    id: "WalletChallenge",
    description: "Sign message with the key behind address, then create a wallet_ownership record with this id and the signature. Single use.",
  });

export type _ChallengeSchemaChecks = [
  Assert<SameKeys<Awaited<ReturnType<typeof createDomainChallenge>>, Out<typeof domainChallengeSchema>>>,
  Assert<SameKeys<Awaited<ReturnType<typeof createWalletChallenge>>, Out<typeof walletChallengeSchema>>>,
  Assert<Fits<Awaited<ReturnType<typeof createDomainChallenge>>, Out<typeof domainChallengeSchema>>>,
  Assert<Fits<Awaited<ReturnType<typeof createWalletChallenge>>, Out<typeof walletChallengeSchema>>>,
];
