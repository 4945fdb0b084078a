import { z } from "zod";
import { walletChallenges } from "@/drizzle/schema";
import { consumeChallenge } from "@/lib/challenges/challenge-store";
import type { Tx } from "@/lib/db/client";
import type { FieldError } from "@/lib/http/errors";
import { fieldErrors } from "@/lib/http/validation";
import { WALLET_CHALLENGE_ID_RE } from "@/lib/ids";
import { normalizeDomain } from "@/lib/proofs/domain-name";
import { type EvidenceLevel, type RecordCreateInput } from "@/lib/record-model/schemas";
import { onlyLevels, refuseSourceFields } from "../field-rules";
import { signedWalletChallenge, verifyKeptSignature } from "../wallet-ownership";
import type { ClaimContext, ClaimModule, CheckOutcome, RecheckOutcome } from "../types";
import { dexChecklist, dexEvidence, dexFieldsSchema, dexProblem, dexRequestFields, type DexSubtype } from "./subtypes";
import { domainRecordProblem, renewalProblem, RENEWS } from "./links";
import { evidenceTooOld, recheckDomainAtApproval, signatureUnchecked, takeSnapshot } from "./approval";

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
 *
 * A sub-kit of its own: `subtypes.ts` (the three subtypes' evidence, rules and checklists),
 * `links.ts` (the records it rests on), `approval.ts` (what approval asks), and this module.
 */

const LEVELS: readonly EvidenceLevel[] = ["evidence_verified"];
/** Issued records are valid this long from approval; their re-check date is the same day. */
export const DEX_VALIDITY_DAYS = 90;
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
    /** The domain record asked again; then, approving, the public snapshot taken. */
    async atApproval(submission, now, { shown }) {
      const rechecked = await recheckDomainAtApproval(submission, now);
      if (rechecked.kind === "refused" || shown) return rechecked;
      const { evidence, checked } = rechecked;
      const { privateEvidence } = submission;
      const user = typeof privateEvidence.user_address === "string" ? privateEvidence.user_address : undefined;
      const vault = typeof evidence.vault_address === "string" ? evidence.vault_address : undefined;
      const snap = await takeSnapshot(evidence.subtype as DexSubtype, String(evidence.address), { user_address: user, vault_address: vault }, now);
      if (snap.kind === "snapshot") return { kind: "ok", evidence: { ...evidence, snapshot: snap.snapshot }, checked };
      if (snap.kind === "none") return { kind: "ok", evidence: { ...evidence, snapshot: null, snapshot_note: `No snapshot: ${snap.reason}.` }, checked };
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
