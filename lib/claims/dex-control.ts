import { isAddress } from "viem";
import { monitorOf } from "./registry";
import { z } from "zod";
import { walletChallenges } from "@/drizzle/schema";
import { consumeChallenge } from "@/lib/challenges/challenge-store";
import { feePercent, maxBuilderFee, vaultDetails, vaultInfoApi } from "@/lib/connectors/vault-info";
import type { HttpSource } from "@/lib/connectors/http";
import type { Tx } from "@/lib/db/client";
import type { FieldError } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/validation";
import { RECORD_ID_RE, WALLET_CHALLENGE_ID_RE } from "@/lib/ids";
import { normalizedValue } from "@/lib/format/normalize";
import { normalizeDomain } from "@/lib/proofs/domain-name";
import { sameAddress } from "@/lib/proofs/wallet-address";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import type { LinkTarget } from "@/lib/record-model/link-types";
import { NO_CONTROL, NO_HIDDEN, noControl, noHiddenText, type EvidenceLevel, type RecordCreateInput } from "@/lib/record-model/schemas";
import { onlyLevels, refuseSourceFields } from "./field-rules";
import { signedWalletChallenge, verifyKeptSignature } from "./wallet-ownership";
import { domainOwnership } from "./domain-ownership";
import type { ApprovalRecheck, ApprovalRecheckInput, ChecklistItem, ClaimContext, ClaimModule, CheckOutcome, RecheckOutcome } from "./types";

/*
 * dex_control (spec 2.6; issue 16): who controls a perpetual-exchange builder or vault wallet,
 * its domain and its social account — the wallet by a signed challenge (checked at
 * submission), the domain by a domain_ownership record of the same account, the social
 * account (and, without a domain, a post carrying the challenge token) by a reviewer. Valid
 * 90 days from approval; evidence must be younger than 24 h when approved. At approval a
 * public snapshot is taken from the exchange's info API (`takeSnapshot`).
 *
 * Evidence is refreshed without a new submission (`checking.refresh`); a renewal is a new submission
 * naming the old record (`evidence.renews`), which it supersedes on approval.
 */

export const DEX_SUBTYPES = ["builder", "vault_leader", "wallet_owner"] as const;
export type DexSubtype = (typeof DEX_SUBTYPES)[number];

const LEVELS: readonly EvidenceLevel[] = ["evidence_verified"];
/** Issued records are valid this long from approval; their re-check date is the same day. */
export const DEX_VALIDITY_DAYS = 90;
/** Evidence checks must be younger than this at approval. */
export const DEX_EVIDENCE_MAX_AGE_MS = 24 * 3600_000;

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

const linkedInvalid = (why: string): FieldError => ({ code: "linked_record_invalid", param: "evidence.domain_record", message: why });

/** The domain record must be this account's, in this environment, active, a domain proof of exactly this domain. */
function domainRecordProblem(t: LinkTarget | undefined, domain: string, on: { environment: string; now: Date }): FieldError | null {
  if (!t) return linkedInvalid("No record of this account has that id.");
  if (t.environment !== on.environment) return linkedInvalid(`The domain record is a ${t.environment} record; this submission is ${on.environment}.`);
  if (t.claimType !== "domain_ownership") return linkedInvalid("domain_record must be a domain_ownership record.");
  const status = effectiveStatus(t, on.now.getTime()).status;
  if (status !== "active") return linkedInvalid(`The domain record is ${status}; it must be active.`);
  const d = normalizeDomain(domain);
  if (!("domain" in d) || t.subject !== d.domain) return linkedInvalid(`domain_record proves ${t.subject}, not ${domain}.`);
  return null;
}

const RENEWS = "renews";

/** A renewal names this account's dex_control record of the same wallet, still in force. */
function renewalProblem(t: LinkTarget | undefined, wallet: string, ctx: ClaimContext): FieldError | null {
  const bad = (why: string): FieldError => ({ code: "linked_record_invalid", param: "evidence.renews", message: why });
  if (!t) return bad("No record of this account has that id.");
  if (t.claimType !== "dex_control" || t.environment !== ctx.auth.environment) return bad(`renews must name a ${ctx.auth.environment} dex_control record.`);
  const status = effectiveStatus(t, ctx.now.getTime()).status;
  if (status !== "active" && status !== "suspended") return bad(`The record renewed is ${status}; only a record still in force is renewed.`);
  if (t.subject.toLowerCase() !== wallet.trim().toLowerCase()) return bad(`The record renewed is about ${t.subject}, not this wallet.`);
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

/**
 * Approval needs a wallet signature the service checked itself (CONTRACT "What was checked"):
 * one whose check needed the network (a smart account's EIP-1271/6492 check) while its RPC
 * could not be reached is unchecked, and waits for "Re-run automatic check" (`checking.recheck`).
 */
export function signatureUnchecked(evidence: Record<string, unknown>): string | null {
  if (evidence.signature_checked === true) return null;
  return "The wallet signature has not been checked by the service: the network could not be asked when it was submitted " +
    "(a smart account's signature is checked on-chain). Re-run the automatic check once the network answers; approval needs a checked signature.";
}

/** Spec 2.6 rule 2: why approval is refused now, or null. */
export function evidenceTooOld(evidence: Record<string, unknown>, now: Date): string | null {
  const checked = Date.parse(String(evidence.checked_at ?? ""));
  if (Number.isNaN(checked)) return "The evidence carries no check time; the customer must refresh it.";
  const age = now.getTime() - checked;
  if (age < DEX_EVIDENCE_MAX_AGE_MS) return null;
  return `The evidence was checked ${Math.floor(age / 3600_000)} h ago; it must be younger than 24 h at approval. The customer must refresh it (re-sign the wallet challenge).`;
}

/**
 * The public snapshot taken at approval (spec 2.6 rules 4 and 6). builder: the maximum fee
 * the named wallet approved for the builder, as a percent — never that wallet's address or
 * its fee rates. A vault: its name, leader, followers and whether deposits are open, only
 * when its leader is the proved wallet; otherwise "No snapshot" with the reason.
 * `unreachable`: the info API gave no answer; the reviewer may approve without a snapshot.
 */
export type DexSnapshot =
  | { kind: "snapshot"; snapshot: Record<string, unknown> }
  | { kind: "none"; reason: string }
  | { kind: "unreachable"; reason: string };

export async function takeSnapshot(
  subtype: DexSubtype, address: string, e: { user_address?: string; vault_address?: string }, now: Date, api: HttpSource = vaultInfoApi(),
): Promise<DexSnapshot> {
  const at = now.toISOString();
  if (subtype === "builder") {
    if (!e.user_address) return { kind: "none", reason: "no wallet was named for the fee" };
    const fee = await maxBuilderFee(e.user_address!, address, api);
    if (fee.kind === "unreachable") return fee;
    if (fee.kind === "not_found") return { kind: "none", reason: "the exchange answered no fee approval" };
    return { kind: "snapshot", snapshot: { approved_max_fee: feePercent(fee.value), taken_at: at } };
  }
  if (!e.vault_address) return { kind: "none", reason: "no vault was named" };
  const vault = await vaultDetails(e.vault_address, api);
  if (vault.kind === "unreachable") return vault;
  if (vault.kind === "not_found") return { kind: "none", reason: "the exchange has no such vault" };
  if (!sameAddress(vault.value.leader, address, "evm")) return { kind: "none", reason: "the vault's leader is not the proved wallet" };
  const v = vault.value;
  return {
    kind: "snapshot",
    snapshot: { vault_name: v.name, vault_address: v.vaultAddress, leader: v.leader, followers: v.followers, deposits_open: v.allowDeposits && !v.isClosed, taken_at: at },
  };
}

/** The dex_control wallet challenge for `address`, signed, and an EVM address (exchange accounts are). */
async function signedWallet(challengeId: string, signature: string, address: string, ctx: ClaimContext) {
  const signed = await signedWalletChallenge(ctx, { challengeId, signature, subject: address, claimType: "dex_control" });
  if ("error" in signed) return signed;
  if (signed.family !== "evm") {
    return { error: { code: "invalid_value", param: "evidence.challenge_id", message: "Exchange wallets are EVM addresses: request the challenge for an EVM network." } as FieldError };
  }
  return signed;
}

const refreshRequest = z.strictObject({
  challenge_id: z.string().regex(WALLET_CHALLENGE_ID_RE),
  signature: z.string().min(1).max(4000),
});

const subtypeOf = (input: RecordCreateInput) => (input as RecordCreateInput & { subtype?: DexSubtype }).subtype;

export const dexControl: ClaimModule = {
  type: "dex_control",
  docs: {
    describe:
      "`dex_control` (top-level `subtype`: builder, vault_leader or wallet_owner): `{challenge_id, signature, domain?, domain_record?, " +
      "social_handle, user_address?, vault_address?, mode?, social_post_url?}` (schema DexControlEvidence). The wallet challenge " +
      "(claim_type dex_control) is checked at submission; a reviewer confirms the social account. 202 pending_review, evidence_verified " +
      "on approval, valid 90 days.",
    evidenceSchema: dexEvidence,
    fieldsSchema: dexFieldsSchema,
    errors: ["missing_field", "field_not_allowed", "invalid_value", "linked_record_invalid", "challenge_not_found", "subject_mismatch", "signature_mismatch", "invalid_signature"],
    example: {
      summary: "A builder's wallet, domain and social account (202, for a reviewer)",
      value: {
        subject: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", claim_type: "dex_control", subtype: "builder",
        claim: "Acme Trading Ltd controls builder 0x8ba1…BA72, acme-trade.example.com and @acmetrade.",
        evidence: {
          challenge_id: "wch_Xw2pL8d0Qn5rTs1yGv3k", signature: "0x<65-byte personal_sign signature, hex>", domain: "acme-trade.example.com",
          domain_record: "PRS-9Q7K2M4N6P8R0T1V3W5X", social_handle: "@acmetrade", user_address: "0x1111111111111111111111111111111111111111",
        },
      },
    },
  },
  request: {
    levels: LEVELS,
    form: {
      label: "Exchange control (builder, vault leader, wallet owner)",
      summary: "Your exchange wallet signs a challenge here in the browser, your domain is proved by a domain record of yours, and a Proof Records reviewer confirms your social account. Valid 90 days.",
      evidenceTitle: "Your wallet, domain and social account",
      walletChallenge: true,
      fields: {
        subject: { label: "Exchange wallet" },
        "evidence.challenge_id": { label: "Wallet challenge" },
        "evidence.signature": { label: "Wallet signature" },
        subtype: {
          label: "Role of the wallet",
          help: "A builder's wallet sends orders from a front end; a vault leader's wallet leads a vault; a wallet owner simply controls the wallet.",
          options: { builder: "Builder (front end)", vault_leader: "Vault leader", wallet_owner: "Wallet owner" },
        },
        "evidence.domain": { label: "Website", help: "Your front end's or vault's website, e.g. example.com. Needed for builders and vault leaders; a wallet owner may instead go without a domain (below).", placeholder: "example.com" },
        "evidence.domain_record": { label: "Domain record", help: "The id of your active domain record for this website (prove the domain on the Proofs page first), e.g. PRS-….", placeholder: "PRS-" },
        "evidence.social_handle": { label: "Social account", help: "The account a reviewer checks: @handle or its profile address.", placeholder: "@yourname" },
        "evidence.user_address": { label: "Fee-approving wallet (builders)", help: "Builders only: a wallet that approved your maximum builder fee; the certificate shows the fee approved, never this wallet." },
        "evidence.vault_address": { label: "Vault address", help: "Vault leaders: the vault led by this wallet (required). Wallet owners may name one too." },
        "evidence.mode": { label: "Without a domain", help: "Wallet owners only: no website; a reviewer checks a post of your social account carrying the challenge's token instead.", options: { domainless: "No domain: a post proves the social account" } },
        "evidence.social_post_url": { label: "Post address (without a domain)", help: "Without a domain only: the address of a post, by the social account, carrying the token shown in the signed message." },
        "evidence.renews": { label: "Renews record", help: "When renewing: the id of your current exchange-control record of this wallet; it is replaced on approval.", placeholder: "PRS-" },
      },
    },
    requestFields: dexRequestFields,
    validate(input) {
      if (input.expires_at !== undefined) return { code: "field_not_allowed", param: "expires_at", message: "dex_control records are valid exactly 90 days from approval." };
      const evidence = input.evidence ?? {};
      const parsed = dexEvidence.safeParse(evidence);
      if (!parsed.success) return fieldErrors(parsed.error, evidence, "evidence")[0]!;
      return dexProblem(subtypeOf(input), parsed.data) ?? refuseSourceFields(input, "dex_control") ?? onlyLevels(input, LEVELS, "dex_control");
    },
    links: {
      of: (input) => {
        const e = dexEvidence.safeParse(input.evidence ?? {}).data;
        return [
          ...(e?.domain_record ? [{ role: "domain_record", targetId: e.domain_record }] : []),
          ...(e?.renews ? [{ role: RENEWS, targetId: e.renews }] : []),
        ];
      },
      /** Approving a renewal supersedes the record it renews; the domain record is asked again at approval, not followed. */
      means: { [RENEWS]: { kind: "renews" } },
    },
  },
  async check(input, ctx): Promise<CheckOutcome> {
    const e = dexEvidence.parse(input.evidence ?? {});
    const subtype = subtypeOf(input)!;
    if (e.renews) {
      const problem = renewalProblem(ctx.linked.get(RENEWS), input.subject, ctx);
      if (problem) return { kind: "fail", error: problem };
    }
    if (e.domain) {
      const problem = domainRecordProblem(ctx.linked.get("domain_record"), e.domain, { environment: ctx.auth.environment, now: ctx.now });
      if (problem) return { kind: "fail", error: problem };
    }
    const signed = await signedWallet(e.challenge_id, e.signature, input.subject, ctx);
    if ("error" in signed) return { kind: "fail", error: signed.error };
    const { ch, network, result } = signed;
    const d = e.domain ? normalizeDomain(e.domain) : null;
    const { user_address, ...shown } = e;
    const publicEvidence = {
      ...shown, subtype, address: ch.address, network, message: ch.message, token: ch.nonce,
      ...(d && "domain" in d ? { domain: d.domain } : {}),
      signature_checked: result.kind === "valid", checked_at: ctx.now.toISOString(),
    };
    const wallet = result.kind === "valid" ? "The wallet signature checked out." : `The wallet signature could not be checked yet (${result.reason}).`;
    const commit = (tx: Tx, recordId: string) => consumeChallenge(tx, walletChallenges, ch.id, recordId);
    return {
      kind: "review", evidenceLevel: "evidence_verified", publicEvidence,
      ...(user_address ? { privateEvidence: { user_address } } : {}),
      reason: `${wallet} A reviewer confirms ${e.mode === "domainless" ? "the post and its author" : "the social account"}.`,
      commit,
    };
  },
  checking: {
    /** Re-sign (a new dex_control wallet challenge for the same wallet) and re-check the domain record: fresh evidence, still pending. */
    async refresh(submission, sent, ctx) {
      const body = refreshRequest.safeParse(sent);
      if (!body.success) return { error: fieldErrors(body.error, sent, "evidence")[0]! };
      const e = submission.evidence;
      if (typeof e.domain_record === "string" && typeof e.domain === "string") {
        const problem = domainRecordProblem(ctx.linked.get("domain_record"), e.domain, { environment: ctx.auth.environment, now: ctx.now });
        if (problem) return { error: problem };
      }
      const signed = await signedWallet(body.data.challenge_id, body.data.signature, String(e.address), ctx);
      if ("error" in signed) return { error: signed.error.param === "subject" ? { ...signed.error, param: "evidence.challenge_id", message: `The new challenge must be for the same wallet, ${String(e.address)}.` } : signed.error };
      const { ch, result } = signed;
      return {
        evidence: {
          ...e, challenge_id: ch.id, message: ch.message, token: ch.nonce, signature: body.data.signature,
          signature_checked: result.kind === "valid", checked_at: ctx.now.toISOString(),
        },
        commit: (tx: Tx, recordId: string) => consumeChallenge(tx, walletChallenges, ch.id, recordId),
      };
    },
    /**
     * "Re-run automatic check": the wallet signature checked again (a smart account's on-chain).
     * Valid → the submission waits for its reviewer with a checked signature (never issued by
     * this: a reviewer confirms the social account); still unreachable or now refused → unchanged.
     */
    async recheck(evidence, now): Promise<RecheckOutcome> {
      if (evidence.signature_checked === true) return { kind: "checked", publicEvidence: evidence, reason: "The wallet signature was already checked." };
      const again = await verifyKeptSignature(evidence);
      if (again.kind !== "valid") return again;
      return {
        kind: "checked", publicEvidence: { ...evidence, signature_checked: true, checked_at: now.toISOString() },
        reason: "The network answered: the wallet signature checked out. A reviewer still confirms the rest.",
      };
    },
  },
  review: {
    checklist: (evidence) => dexChecklist(evidence.subtype as DexSubtype, { mode: evidence.mode === "domainless" ? "domainless" : undefined }),
    beforeApprove: (submission, now) => signatureUnchecked(submission.evidence) ?? evidenceTooOld(submission.evidence, now),
    awaitsSource: (evidence) => evidence.signature_checked !== true,
    recheckAtApproval: (submission, now) => recheckDomainAtApproval(submission, now),
    async atApproval({ evidence, privateEvidence }, now) {
      const user = typeof privateEvidence.user_address === "string" ? privateEvidence.user_address : undefined;
      const vault = typeof evidence.vault_address === "string" ? evidence.vault_address : undefined;
      const snap = await takeSnapshot(evidence.subtype as DexSubtype, String(evidence.address), { user_address: user, vault_address: vault }, now);
      if (snap.kind === "snapshot") return { kind: "evidence", evidence: { ...evidence, snapshot: snap.snapshot } };
      if (snap.kind === "none") return { kind: "evidence", evidence: { ...evidence, snapshot: null, snapshot_note: `No snapshot: ${snap.reason}.` } };
      return {
        kind: "unreachable", reason: snap.reason,
        evidenceWithout: { ...evidence, snapshot: null, snapshot_note: "No snapshot: the exchange's info API could not be reached at approval." },
      };
    },
  },
  view: {
    /** The wallet by its signature, the domain by its record, the social account (always a reviewer's: dex_control is reviewed). */
    facts: (_subject, e) => [
      { fact: "wallet_control", by: "signature" },
      ...(typeof e.domain === "string" ? [{ fact: "domain_control", by: "source" as const, ...(typeof e.domain_record === "string" ? { source: `domain_ownership record ${e.domain_record}` } : {}) }] : []),
      { fact: "social_account", by: "source", ...(typeof e.social_handle === "string" ? { source: `social account ${e.social_handle}` } : {}) },
    ],
    /** Found by its wallet, its social account and its website (a builder's front end: the embed badge is green only there). */
    lookupValues: (subject, e) => [
      { kind: "wallet", value: subject, field: "subject" },
      ...(typeof e.social_handle === "string" ? [{ kind: "social_handle" as const, value: e.social_handle, field: "evidence.social_handle" }] : []),
      ...(typeof e.domain === "string" ? [{ kind: "website" as const, value: e.domain, field: "evidence.domain" }] : []),
    ],
    /** Spec 2.10 / 2.6 rule 7: the signed status carries evidence.mode and evidence.social_handle. */
    publicFields: ({ evidence }) => ({ evidence: { mode: evidence.mode ?? null, social_handle: evidence.social_handle ?? null } }),
  },
  policy: {
    recheck: { kind: "renewal", validityDays: DEX_VALIDITY_DAYS },
  },
  challenge: { kind: "wallet" },
};

/**
 * At approval the domain part is asked again (CONTRACT "What was checked": the certificate says
 * the domain was checked): the domain record must still be an active proof of the domain, and
 * its DNS TXT record — asked now through domain_ownership's monitor — still published. Gone,
 * or DNS silent → approval refused with the reason; nothing changes. Domainless submissions
 * have no domain to ask.
 */
export async function recheckDomainAtApproval(submission: ApprovalRecheckInput, now: Date): Promise<ApprovalRecheck> {
  const e = submission.evidence;
  const signed = e.signature_checked === true && typeof e.checked_at === "string"
    ? [`The wallet signature was checked by the service at ${e.checked_at}.`] : [];
  if (typeof e.domain !== "string" || typeof e.domain_record !== "string") return { kind: "ok", evidence: e, checked: signed };
  const target = submission.linked.get("domain_record");
  const problem = domainRecordProblem(target, e.domain, { environment: submission.environment, now });
  if (problem || !target) return { kind: "refused", reason: `The domain record ${e.domain_record} no longer stands for ${e.domain}: ${problem?.message ?? "not found."}` };
  const found = await monitorOf(domainOwnership)!.run(target.evidencePublic, now);
  if (found.kind === "unreachable") {
    return { kind: "refused", reason: `The domain ${e.domain} could not be re-checked at approval: DNS did not answer (${found.reason}). Try again in a moment.` };
  }
  if (found.kind === "lapsed") return { kind: "refused", reason: `The domain ${e.domain} was re-checked at approval and no longer holds: ${found.reason}` };
  const at = now.toISOString();
  return {
    kind: "ok", evidence: { ...e, domain_checked_at: at },
    checked: [...signed, `The domain record ${e.domain_record} is active and its DNS TXT record for ${e.domain} is still published (asked at ${at}).`],
  };
}
