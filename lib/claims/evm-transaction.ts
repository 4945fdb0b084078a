import { z } from "zod";
import { requiredConfirmations } from "@/lib/connectors/evm-confirmations";
import { lookupTransaction, TX_HASH_RE } from "@/lib/connectors/evm-transaction";
import { judgeTransaction } from "@/lib/proofs/judge-transaction";
import { EVM_NETWORKS } from "@/lib/proofs/wallet-address";
import { evidenceRules, withEvidence } from "./field-rules";
import type { EvidenceLevel } from "@/lib/records/schemas";
import type { CheckOutcome, ClaimModule, RecheckOutcome } from "./types";

const LEVELS: readonly EvidenceLevel[] = ["source_verified"];

const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address: 0x and 40 hex digits.");

export const evmTransactionEvidence = z
  .strictObject({
    network: z.enum(EVM_NETWORKS),
    tx_hash: z.string().regex(TX_HASH_RE, "must be a transaction hash: 0x and 64 hex digits."),
    expected_from: evmAddress.optional().describe("The sender the transaction must have (compared without case)."),
    expected_to: evmAddress.optional().describe("The recipient the transaction must have (compared without case)."),
  })
  .meta({ id: "EvmTransactionEvidence" });
type Evidence = z.infer<typeof evmTransactionEvidence>;

/** Payments made by an agent (spec 2.4) add these; until they land they are refused, never ignored. */
const NOT_YET = ["agent_record", "act"] as const;

/**
 * evm_transaction: that a transaction happened on an EVM chain — mined, successful, deep
 * enough, from and to the addresses asked for — as the network's RPC reports it. A receipt
 * is final: issued records are never re-checked. Says nothing about what the payment was for.
 */
export const evmTransaction: ClaimModule = {
  type: "evm_transaction",
  docs: {
    describe:
      "`evm_transaction`: `{network, tx_hash, expected_from?, expected_to?}` (schema EvmTransactionEvidence); issued at " +
      "source_verified when the receipt is successful, has the network's confirmations (EVM_CONFIRMATIONS) and matches the " +
      "expected sender and recipient; an RPC that does not answer (or none configured for the network) gives 202 pending_review.",
    evidenceSchema: evmTransactionEvidence,
    errors: ["transaction_not_found", "transaction_reverted", "transaction_not_confirmed", "transaction_mismatch", "field_not_allowed", "evidence_level_not_allowed"],
    example: {
      summary: "A payment on Base, with its sender and recipient (201)",
      value: {
        subject: "Payment from Acme Trading Ltd to Globex", claim_type: "evm_transaction",
        claim: "Acme Trading Ltd paid Globex 0.5 ETH on Base.",
        evidence: {
          network: "base", tx_hash: "0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b",
          expected_from: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", expected_to: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B",
        },
      },
    },
  },
  levels: LEVELS,
  form: {
    label: "On-chain payment (EVM transaction)",
    summary: "That a transaction happened on an EVM network — mined, successful, deep enough, between the addresses you name — as the network reports it.",
    fields: {
      subject: { help: "What the payment is, in a few words.", placeholder: "Payment from Acme Trading Ltd to Globex" },
      claim: { placeholder: "Acme Trading Ltd paid Globex 0.5 ETH on Base." },
      "evidence.network": { label: "Network" },
      "evidence.tx_hash": { label: "Transaction hash", help: "0x and 64 hex digits.", placeholder: "0x…" },
      "evidence.expected_from": { label: "Sender address", placeholder: "0x…" },
      "evidence.expected_to": { label: "Recipient address", placeholder: "0x…" },
    },
  },
  review: {
    checklist: [
      { key: "explorer_checked", label: "On the network's explorer (or an RPC of my own) the transaction exists, succeeded and is deep enough." },
      { key: "parties_match", label: "Its sender and recipient are the expected ones given in the evidence." },
    ],
  },
  validate(input) {
    const evidence = input.evidence ?? {};
    const early = NOT_YET.find((k) => Object.hasOwn(evidence, k));
    if (early) {
      return { code: "field_not_allowed", param: `evidence.${early}`, message: `'evidence.${early}' (payments made by an agent) is not available yet on this service.` };
    }
    return evidenceRules(input, "evm_transaction", evmTransactionEvidence, LEVELS);
  },
  check: withEvidence(evmTransactionEvidence, async (_input, evidence): Promise<CheckOutcome> => {
    const found = await lookupTransaction(evidence.network, evidence.tx_hash);
    if (found.kind === "unreachable") {
      return { kind: "review", evidenceLevel: "source_verified", reason: `${found.reason} A reviewer, or a re-run once it answers, confirms it instead.`, publicEvidence: asked(evidence) };
    }
    if (found.kind === "not_found") {
      return { kind: "fail", error: { code: "transaction_not_found", param: "evidence.tx_hash", message: found.reason ?? `The ${evidence.network} network has no transaction ${evidence.tx_hash}.` } };
    }
    const judged = judgeTransaction(found.value, evidence, requiredConfirmations(evidence.network));
    return judged;
  }),
  async recheck(stored): Promise<RecheckOutcome> {
    const parsed = evmTransactionEvidence.safeParse(stored);
    if (!parsed.success) return { kind: "fail", reason: "The stored evidence is not a transaction reference." };
    const evidence = parsed.data;
    const found = await lookupTransaction(evidence.network, evidence.tx_hash);
    if (found.kind === "unreachable") return found;
    if (found.kind === "not_found") return { kind: "fail", reason: found.reason ?? `The ${evidence.network} network has no transaction ${evidence.tx_hash}.` };
    const judged = judgeTransaction(found.value, evidence, requiredConfirmations(evidence.network));
    return judged.kind === "issue" ? judged : { kind: "fail", reason: judged.error.message };
  },
};

/** What was asked, kept while the submission waits for the RPC (or a reviewer). */
const asked = (e: Evidence) => ({ ...e });
