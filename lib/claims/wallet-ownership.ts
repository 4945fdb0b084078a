import { z } from "zod";
import { walletChallenges } from "@/drizzle/schema";
import { consumeChallenge, loadChallenge } from "@/lib/challenges/challenge-store";
import type { Tx } from "@/lib/db/client";
import { WALLET_CHALLENGE_ID_RE } from "@/lib/ids";
import { normalizeAddress, sameAddress, type WalletNetwork } from "@/lib/proofs/wallet-address";
import { verifyWalletSignature } from "@/lib/proofs/verify-wallet-signature";
import { evidenceRules, withEvidence } from "./field-rules";
import type { EvidenceLevel } from "@/lib/record-model/schemas";
import type { FieldError } from "@/lib/http/errors";
import type { ClaimContext, ClaimModule } from "./types";

const LEVELS: readonly EvidenceLevel[] = ["source_verified"];

export const walletEvidence = z
  .strictObject({ challenge_id: z.string().regex(WALLET_CHALLENGE_ID_RE), signature: z.string().min(1).max(4000) })
  .meta({ id: "WalletOwnershipEvidence" });

/**
 * A wallet challenge of this account, asked for `claimType` and for the address `subject`,
 * and the signature over its message, checked: the challenge, its network and the
 * signature's result (`valid`, or `unreachable` for a smart account whose RPC does not
 * answer); a malformed or foreign signature, a challenge for another claim type or address
 * is the FieldError. Shared by every claim type proved with a wallet challenge.
 */
export async function signedWalletChallenge(
  ctx: Pick<ClaimContext, "auth" | "now" | "db">, o: { challengeId: string; signature: string; subject: string; claimType: string },
) {
  const fail = (error: FieldError) => ({ error });
  const loaded = await loadChallenge(ctx.db, walletChallenges, ctx.auth, o.challengeId, ctx.now);
  if ("error" in loaded) return fail(loaded.error!);
  const ch = loaded.row;
  if (ch.claimType !== o.claimType) {
    return fail({ code: "challenge_not_found", param: "evidence.challenge_id", message: `This challenge was issued for ${ch.claimType}; request one with claim_type ${o.claimType}.` });
  }
  const network = ch.network as WalletNetwork;
  const addr = normalizeAddress(ch.address, network);
  if ("error" in addr) return fail(addr.error);
  if (!sameAddress(o.subject.trim(), ch.address, addr.family)) {
    return fail({ code: "subject_mismatch", param: "subject", message: `The subject must be the challenge's address, ${ch.address}.` });
  }
  const result = await verifyWalletSignature(addr, network, ch.message, o.signature);
  if (result.kind === "malformed") return fail({ code: "invalid_signature", param: "evidence.signature", message: result.message });
  if (result.kind === "mismatch") {
    return fail({ code: "signature_mismatch", param: "evidence.signature", message: `The signature was not made by the key behind ${ch.address} over the challenge message.` });
  }
  return { ch, network, family: addr.family, result };
}

/**
 * The wallet signature a record's evidence keeps (`address`, `network`, `message`,
 * `signature`) verified again — a smart account's on-chain: valid with its scheme, the
 * network's silence, or why it fails. Shared by every type proved with a wallet challenge.
 */
export async function verifyKeptSignature(evidence: Record<string, unknown>) {
  const network = String(evidence.network) as WalletNetwork;
  const addr = normalizeAddress(String(evidence.address), network);
  if ("error" in addr) return { kind: "fail" as const, reason: addr.error.message };
  const result = await verifyWalletSignature(addr, network, String(evidence.message), String(evidence.signature));
  switch (result.kind) {
    case "valid":
      return result;
    case "unreachable":
      return { kind: "unreachable" as const, reason: result.reason };
    case "malformed":
      return { kind: "fail" as const, reason: result.message };
    case "mismatch":
      return { kind: "fail" as const, reason: `The signature was not made by the key behind ${String(evidence.address)} over the challenge message.` };
  }
}

/**
 * wallet_ownership: control of the key behind an address at signing time, shown by a
 * signature over the challenge message. It says nothing about who holds the key.
 */
export const walletOwnership: ClaimModule = {
  type: "wallet_ownership",
  docs: {
    describe:
      "`wallet_ownership`: `{challenge_id, signature}` (schema WalletOwnershipEvidence) of a wallet challenge " +
      "(POST /api/v1/wallet-challenges), the signature over its message (EVM 0x hex; bitcoin base64, BIP-137 or BIP-322 simple; " +
      "solana base58 or base64); the subject is the address; issued at source_verified. An EVM RPC that does not answer " +
      "(smart accounts) gives 202 pending_review.",
    evidenceSchema: walletEvidence,
    errors: ["challenge_not_found", "challenge_expired", "challenge_used", "subject_mismatch", "invalid_signature", "signature_mismatch", "invalid_address", "field_not_allowed", "evidence_level_not_allowed"],
    example: {
      summary: "Wallet control, with the signature over the challenge's message (201)",
      value: {
        subject: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", claim_type: "wallet_ownership",
        claim: "Acme Trading Ltd controls this Ethereum address.",
        evidence: { challenge_id: "wch_Xw2pL8d0Qn5rTs1yGv3k", signature: "0x<65-byte personal_sign signature, hex>" },
      },
    },
  },
  request: {
    levels: LEVELS,
    form: {
      label: "Wallet ownership",
      summary: "Control of the key behind a wallet address, shown by signing a challenge. The Proofs page does it with a browser wallet.",
      href: "/proofs#wallet",
    },
    validate: (input) => evidenceRules(input, "wallet_ownership", walletEvidence, LEVELS),
  },
  check: withEvidence(walletEvidence, async (input, { challenge_id, signature }, ctx) => {
    const signed = await signedWalletChallenge(ctx, { challengeId: challenge_id, signature, subject: input.subject, claimType: "wallet_ownership" });
    if ("error" in signed) return { kind: "fail", error: signed.error };
    const { ch, network, result } = signed;
    const evidence = { challenge_id, address: ch.address, network, message: ch.message, signature, checked_at: ctx.now.toISOString() };
    const commit = (tx: Tx, recordId: string) => consumeChallenge(tx, walletChallenges, ch.id, recordId);
    return result.kind === "valid"
      ? { kind: "issue", evidenceLevel: "source_verified", publicEvidence: { ...evidence, signature_scheme: result.scheme }, commit }
      : { kind: "review", evidenceLevel: "evidence_verified", reason: result.reason, publicEvidence: evidence, commit };
  }),
  checking: {
    async recheck(evidence, now) {
      const again = await verifyKeptSignature(evidence);
      if (again.kind !== "valid") return again;
      return { kind: "issue", evidenceLevel: "source_verified", publicEvidence: { ...evidence, checked_at: now.toISOString(), signature_scheme: again.scheme } };
    },
  },
  review: {
    checklist: [
      { key: "message_matches", label: "The signed message is the challenge issued for this address and network.", fields: ["evidence.message", "evidence.address", "evidence.network"] },
      { key: "signature_verified", label: "The signature verifies for the address (for a smart account: EIP-1271/6492 on its chain).", fields: ["evidence.signature", "evidence.address"] },
    ],
  },
  view: {
    lookupValues: (subject) => [{ kind: "wallet", value: subject, field: "subject" }],
    /** Control of the key behind the address, by its signature over the challenge message. */
    facts: () => [{ fact: "wallet_control", by: "signature" }],
  },
  challenge: {
    kind: "wallet",
    primary: {
      proofRequest: ({ subject, challengeId, signature }) => ({ subject, claim: `Controls the key behind ${subject}.`, evidence: { challenge_id: challengeId, signature } }),
    },
  },
};
