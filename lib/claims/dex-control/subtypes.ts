import { isAddress } from "viem";
import { z } from "zod";
import type { FieldError } from "@/lib/http/errors";
import { RECORD_ID_RE, WALLET_CHALLENGE_ID_RE } from "@/lib/ids";
import { normalizedValue } from "@/lib/format/normalize";
import { normalizeDomain } from "@/lib/proofs/domain-name";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText } from "@/lib/record-model/schemas";
import type { ChecklistItem } from "../types";

/* The three subtypes of dex_control (spec 2.6) — builder, vault leader, wallet owner: their evidence, the parts each needs, and what a reviewer ticks for each. */

export const DEX_SUBTYPES = ["builder", "vault_leader", "wallet_owner"] as const;
export type DexSubtype = (typeof DEX_SUBTYPES)[number];

const evmAddress = z.string().max(100).refine((a) => isAddress(a, { strict: false }), "Not an EVM address (0x and 40 hex digits).");

export const dexEvidence = z
  .strictObject({
    challenge_id: z.string().regex(WALLET_CHALLENGE_ID_RE).describe("A wallet challenge requested with claim_type dex_control."),
    signature: z.string().min(1).max(4000).describe("The wallet's signature over the challenge message (0x hex)."),
    domain: z.string().min(1).max(300).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).optional().describe("The front end's or vault's website; required for builder and vault_leader."),
    domain_record: z.string().regex(RECORD_ID_RE).optional().describe("An active domain_ownership record of this account for `domain`."),
    social_handle: z.string().min(1).max(200).regex(noControl, NO_CONTROL).regex(noHiddenText, NO_HIDDEN).describe("The social account a reviewer checks (@handle or profile URL)."),
    user_address: evmAddress.optional().describe("builder: the wallet whose approved maximum fee is snapshotted. Never shown publicly."),
    vault_address: evmAddress.optional().describe("vault_leader (required), wallet_owner (optional): the vault led by the wallet."),
    mode: z.literal("domainless").optional().describe("wallet_owner without a domain: a reviewer checks a post carrying the challenge token."),
    social_post_url: z.url({ protocol: /^https$/ }).max(500).optional().describe("mode domainless: the post, by the social account, carrying the challenge token."),
    renews: z.string().regex(RECORD_ID_RE).optional().describe("The dex_control record of this wallet this submission renews: superseded by it on approval."),
  })
  .meta({ id: "DexControlEvidence" });
export type DexEvidence = z.infer<typeof dexEvidence>;

export const dexRequestFields = {
  subtype: z.enum(DEX_SUBTYPES).describe("dex_control: builder, vault_leader or wallet_owner."),
};
export const dexFieldsSchema = z.strictObject(dexRequestFields).meta({
  id: "DexControlFields",
  description: "dex_control's own top-level request field, sent beside subject, claim_type and claim.",
});

const missing = (param: string, why: string): FieldError => ({ code: "missing_field", param: `evidence.${param}`, message: why });
const notAllowed = (param: string, why: string): FieldError => ({ code: "field_not_allowed", param: `evidence.${param}`, message: why });

/** The subtype rules of spec 2.6: every missing or misplaced part is named. */
export function dexProblem(subtype: DexSubtype | undefined, e: DexEvidence): FieldError | null {
  if (!subtype) return { code: "missing_field", param: "subtype", message: `dex_control needs subtype: ${DEX_SUBTYPES.join(", ")}.` };
  if (normalizedValue("social_handle", e.social_handle) === null) {
    return { code: "invalid_value", param: "evidence.social_handle", message: "Not a social handle (@name) or profile URL." };
  }
  const domainless = e.mode === "domainless";
  if (domainless && subtype !== "wallet_owner") return notAllowed("mode", "Only a wallet_owner record can be domainless; builders and vault leaders prove their domain.");
  if (domainless) {
    if (e.domain || e.domain_record) return notAllowed(e.domain ? "domain" : "domain_record", "A domainless record names no domain.");
    if (!e.social_post_url) return missing("social_post_url", "Domainless mode needs social_post_url: a post by the social account carrying the challenge token.");
  } else {
    if (e.social_post_url) return notAllowed("social_post_url", "social_post_url belongs to mode domainless.");
    if (!e.domain) return missing("domain", subtype === "wallet_owner" ? "A wallet_owner record needs a domain, or mode domainless." : `A ${subtype} record needs its domain.`);
    if (!e.domain_record) return missing("domain_record", "The domain needs domain_record: an active domain_ownership record of this account for it.");
    const d = normalizeDomain(e.domain);
    if (!("domain" in d)) return { ...d.error, param: "evidence.domain" };
  }
  if (subtype === "builder" && !e.user_address) return missing("user_address", "A builder record names the wallet whose approved maximum fee is shown (user_address).");
  if (subtype !== "builder" && e.user_address) return notAllowed("user_address", "user_address belongs to builder records.");
  if (subtype === "vault_leader" && !e.vault_address) return missing("vault_address", "A vault_leader record names its vault (vault_address).");
  if (subtype === "builder" && e.vault_address) return notAllowed("vault_address", "A builder record names no vault.");
  return null;
}

const CHECKLISTS: Record<DexSubtype | "domainless", readonly ChecklistItem[]> = {
  builder: [
    { key: "social_account", label: "The social account is the builder's: it links the domain, or the domain links it.", fields: ["evidence.social_handle", "evidence.domain"] },
    { key: "builder_front_end", label: "The domain serves the builder's front end, which sends orders with this builder wallet.", fields: ["evidence.domain", "evidence.address"] },
  ],
  vault_leader: [
    { key: "social_account", label: "The social account is the vault leader's: it links the domain, or the domain links it.", fields: ["evidence.social_handle", "evidence.domain"] },
    { key: "vault_named", label: "The domain or the social account names this vault.", fields: ["evidence.domain", "evidence.social_handle", "evidence.vault_address"] },
  ],
  wallet_owner: [
    { key: "social_account", label: "The social account links the domain, or the domain links it.", fields: ["evidence.social_handle", "evidence.domain"] },
  ],
  domainless: [
    { key: "post_author", label: "The post at social_post_url is by the social account named (its author, not a repost).", fields: ["evidence.social_post_url", "evidence.social_handle"] },
    { key: "post_token", label: "The post's text carries this submission's challenge token, exactly.", fields: ["evidence.social_post_url", "evidence.token"] },
  ],
};

/** What a reviewer ticks for a submission of this subtype (and mode). */
export function dexChecklist(subtype: DexSubtype, e: Pick<DexEvidence, "mode">): readonly ChecklistItem[] {
  return e.mode === "domainless" ? CHECKLISTS.domainless : CHECKLISTS[subtype];
}
