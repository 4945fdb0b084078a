import { z } from "zod";
import { AGENT_RECORD_ROLE, agentLinkAt } from "@/lib/agents/agent-link";
import { requiredConfirmations } from "@/lib/connectors/evm-confirmations";
import { lookupTransaction, TX_HASH_RE, type EvmTransaction } from "@/lib/connectors/evm-transaction";
import type { DbOrTx } from "@/lib/db/client";
import type { FieldError } from "@/lib/http/errors";
import { judgeTransaction } from "@/lib/proofs/judge-transaction";
import { EVM_NETWORKS } from "@/lib/proofs/wallet-address";
import { isIssued } from "@/lib/record-model/effective-status";
import type { LinkTarget } from "@/lib/record-model/link-types";
import { recordIdSchema, type EvidenceLevel } from "@/lib/record-model/schemas";
import { agentAuthorization, agentFields } from "./agent-authorization";
import { evidenceRules, withEvidence } from "./field-rules";
import type { CheckOutcome, ClaimModule, RecheckOutcome } from "./types";

const LEVELS: readonly EvidenceLevel[] = ["source_verified"];

const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address: 0x and 40 hex digits.");

export const evmTransactionEvidence = z
  .strictObject({
    network: z.enum(EVM_NETWORKS),
    tx_hash: z.string().regex(TX_HASH_RE, "must be a transaction hash: 0x and 64 hex digits."),
    expected_from: evmAddress.optional().describe("The sender the transaction must have (compared without case)."),
    expected_to: evmAddress.optional().describe("The recipient the transaction must have (compared without case)."),
    agent_record: recordIdSchema.optional()
      .describe("A payment made by an agent: the issued agent_authorization record (same account and environment) it was made under."),
    act: agentFields.act.optional()
      .describe("What the agent did, compared exactly with the agent record's act (act_match); needs agent_record."),
  })
  .meta({ id: "EvmTransactionEvidence" });
type Evidence = z.infer<typeof evmTransactionEvidence>;

/**
 * Why a record cannot be the agent a payment was made by (spec 2.4 rule 1), or null: it must
 * be an agent authorization of the same account (another account's is not found) and the
 * same environment, and have been issued. A revoked or expired agent may be cited: its
 * status at the block time is what the payment records.
 */
function agentProblem(target: LinkTarget | undefined, environment: string): FieldError | null {
  const invalid = (why: string): FieldError => ({ code: "agent_record_invalid", param: "evidence.agent_record", message: why });
  if (!target) return invalid("No record of this account has that id.");
  if (target.claimType !== agentAuthorization.type) return invalid(`The agent record must be an ${agentAuthorization.type} record, not ${target.claimType}.`);
  if (target.environment !== environment) {
    return invalid(`A ${environment} payment must cite a ${environment} agent record; this one is ${target.environment}.`);
  }
  if (!isIssued(target.status)) return invalid(`The agent record is ${target.status}: it has never been issued.`);
  return null;
}

/** The chain's facts, and for a payment made by an agent what was asked and the agent link as of the block time. */
async function paymentEvidence(db: DbOrTx, accountId: string, evidence: Evidence, chainFacts: Record<string, unknown>) {
  if (evidence.agent_record === undefined) return chainFacts;
  const blockTime = new Date(String(chainFacts.block_time));
  const link = await agentLinkAt(db, accountId, evidence.agent_record, { blockTime, from: String(chainFacts.from ?? "") }, evidence.act);
  if (!link) return null;
  return { ...chainFacts, ...(evidence.act !== undefined && { act: evidence.act }), agent_link: link };
}

/**
 * evm_transaction: that a transaction happened on an EVM chain — mined, successful, deep
 * enough, from and to the addresses asked for — as the network's RPC reports it. A receipt
 * is final: issued records are never re-checked. Says nothing about what the payment was for.
 */
export const evmTransaction: ClaimModule = {
  type: "evm_transaction",
  docs: {
    describe:
      "`evm_transaction`: `{network, tx_hash, expected_from?, expected_to?, agent_record?, act?}` (schema EvmTransactionEvidence); issued at " +
      "source_verified when the receipt is successful, has the network's confirmations (EVM_CONFIRMATIONS) and matches the " +
      "expected sender and recipient; an RPC that does not answer (or none configured for the network) gives 202 pending_review. " +
      "A payment made by an agent names its issued agent_authorization record (same account and environment) as `agent_record`: " +
      "the record stores and signs `agent_link {agent_record, agent_id, agent_status_at_payment, act_match, attribution}`, the agent's status at " +
      "the block's time and `attribution`: agent_wallet when the transaction's sender is one of the agent's wallets (its agent_wallets), " +
      "else cited; only agent_wallet payments count in the agent's spend. Amounts are not checked.",
    evidenceSchema: evmTransactionEvidence,
    errors: [
      "transaction_not_found", "transaction_reverted", "transaction_not_confirmed", "transaction_mismatch", "agent_record_invalid",
      "field_not_allowed", "evidence_level_not_allowed",
    ],
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
  request: {
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
        "evidence.agent_record": { label: "Made by an agent (its agent record)", help: "Only for a payment an AI agent made: the verification id of its agent authorization.", placeholder: "PRS-…" },
        "evidence.act": { label: "What the agent did", help: "Compared with the act its authorization names, e.g. pay_invoices." },
      },
    },
    validate(input) {
      const evidence = input.evidence ?? {};
      if (Object.hasOwn(evidence, "act") && !Object.hasOwn(evidence, "agent_record")) {
        return { code: "missing_field", param: "evidence.agent_record", message: "'evidence.act' is compared with an agent's act: send the agent's record as 'evidence.agent_record' with it." };
      }
      return evidenceRules(input, "evm_transaction", evmTransactionEvidence, LEVELS);
    },
    links: {
      of: (input) => {
        const id = evmTransactionEvidence.safeParse(input.evidence ?? {}).data?.agent_record;
        return id ? [{ role: AGENT_RECORD_ROLE, targetId: id }] : [];
      },
    },
  },
  check: withEvidence(evmTransactionEvidence, async (_input, evidence, ctx): Promise<CheckOutcome> => {
    if (evidence.agent_record !== undefined) {
      const problem = agentProblem(ctx.linked.get(AGENT_RECORD_ROLE), ctx.auth.environment);
      if (problem) return { kind: "fail", error: problem };
    }
    const found = await lookupTransaction(evidence.network, evidence.tx_hash);
    if (found.kind === "unreachable") {
      return { kind: "review", evidenceLevel: "evidence_verified", reason: `${found.reason} A reviewer, or a re-run once it answers, confirms it instead.`, publicEvidence: asked(evidence) };
    }
    if (found.kind === "not_found") {
      return { kind: "fail", error: { code: "transaction_not_found", param: "evidence.tx_hash", message: found.reason ?? `The ${evidence.network} network has no transaction ${evidence.tx_hash}.` } };
    }
    return judged(ctx.db, ctx.auth.accountId, found.value, evidence);
  }),
  checking: {
    async recheck(stored, _now, record, db): Promise<RecheckOutcome> {
      const parsed = evmTransactionEvidence.safeParse(stored);
      if (!parsed.success) return { kind: "fail", reason: "The stored evidence is not a transaction reference." };
      const evidence = parsed.data;
      const found = await lookupTransaction(evidence.network, evidence.tx_hash);
      if (found.kind === "unreachable") return found;
      if (found.kind === "not_found") return { kind: "fail", reason: found.reason ?? `The ${evidence.network} network has no transaction ${evidence.tx_hash}.` };
      const outcome = await judged(db, record.accountId, found.value, evidence);
      return outcome.kind === "issue" ? outcome : { kind: "fail", reason: outcome.error.message };
    },
  },
  review: {
    checklist: [
      { key: "explorer_checked", label: "On the network's explorer (or an RPC of my own) the transaction exists, succeeded and is deep enough.", fields: ["evidence.network", "evidence.tx_hash"] },
      { key: "parties_match", label: "Its sender and recipient are the expected ones given in the evidence.", fields: ["evidence.expected_from", "evidence.expected_to"] },
    ],
    // The agent's status at payment is read at the block's time, which only the chain gives (spec 2.4 rule 1).
    beforeApprove: ({ evidence }) => (evidence.agent_record === undefined ? null
      : "A payment made by an agent is issued only once it is checked on-chain: its agent's status is read at the block's time. Re-run the automatic check once the network answers, or reject it."),
  },
  view: {
    /** The transaction as the network's RPC reports it (mined, successful, deep enough, between the addresses asked). */
    facts: (_subject, evidence) => [{ fact: "transaction", by: "source", source: `${typeof evidence.network === "string" ? evidence.network : "EVM"} RPC` }],
    publicFields: ({ evidence }) => ({ agent_link: isObject(evidence.agent_link) ? evidence.agent_link : null }),
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The transaction judged against the request; one that passes carries the chain's facts and, for an agent's payment, its agent link. */
async function judged(db: DbOrTx, accountId: string, found: EvmTransaction, evidence: Evidence) {
  const judgement = judgeTransaction(found, evidence, requiredConfirmations(evidence.network));
  if (judgement.kind === "fail") return judgement;
  const publicEvidence = await paymentEvidence(db, accountId, evidence, judgement.publicEvidence);
  if (!publicEvidence) {
    return { kind: "fail" as const, error: { code: "agent_record_invalid" as const, param: "evidence.agent_record", message: "No record of this account has that id." } };
  }
  return { ...judgement, publicEvidence };
}

/** What was asked, kept while the submission waits for the RPC (or a reviewer). */
const asked = (e: Evidence) => ({ ...e });
