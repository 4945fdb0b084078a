import { and, eq, like } from "drizzle-orm";
import { recordLinks, records } from "@/drizzle/schema";
import type { DbOrTx } from "@/lib/db/client";
import { effectiveStatus } from "@/lib/record-model/effective-status";
import { latestEntries } from "@/lib/record-model/history-page";
import { issuedStatusAt } from "@/lib/record-model/status-from-history";

/** The role under which a payment rests on the agent record that made it (record_links). */
export const AGENT_RECORD_ROLE = "agent_record";

/** The roles under which an agent record rests on its wallets (`agent_wallets`, in order): agent_wallet_0, agent_wallet_1, … */
export const agentWalletRole = (i: number) => `agent_wallet_${i}`;
export const isAgentWalletRole = (role: string) => /^agent_wallet_\d+$/.test(role);

/**
 * Whose payment it is (CONTRACT "Payments by an agent"): `agent_wallet` when the transaction
 * was sent from one of the agent's wallets (`agent_wallets`, a wallet_ownership record still
 * active when the payment is recorded); `cited` when the payment only names the agent. Only
 * `agent_wallet` payments count in the agent's spend.
 */
export type Attribution = "agent_wallet" | "cited";

/**
 * The agent record's status at the payment's block time. The spec names five; `superseded`
 * is the sixth status a record can have had then, and is said as it was rather than folded
 * into another.
 */
export type AgentStatusAtPayment = "active" | "suspended" | "revoked" | "expired" | "superseded" | "not_yet_issued";

/** What a payment made by an agent stores at issue (spec 2.4): historical, never recomputed. */
export type AgentLink = {
  agent_record: string;
  agent_id: string | null;
  agent_status_at_payment: AgentStatusAtPayment;
  /** The act sent with the payment equals the agent's `act`; "unknown" when none was sent. */
  act_match: boolean | "unknown";
  attribution: Attribution;
};

/**
 * The agent link of a payment mined at `blockTime` under the agent record `agentRecordId`
 * of `accountId`: the agent's status then, from its history (the last entry at or before the
 * block time, read as expired once its `expires_at` had passed; none yet → not_yet_issued),
 * and whether `act` is the agent's. Null when the account has no such record.
 */
export async function agentLinkAt(
  db: DbOrTx, accountId: string, agentRecordId: string, tx: { blockTime: Date; from: string }, act: string | undefined, now = new Date(),
): Promise<AgentLink | null> {
  const blockTime = tx.blockTime;
  const [agent] = await db
    .select({ status: records.status, statusChangedAt: records.statusChangedAt, expiresAt: records.expiresAt, evidence: records.evidencePublic })
    .from(records)
    .where(and(eq(records.id, agentRecordId), eq(records.accountId, accountId)));
  if (!agent) return null;
  // The entry in force at the block time, by index (record_history_record_at_idx): never the whole history.
  const inForce = (await latestEntries(db, [agentRecordId], 1, blockTime)).get(agentRecordId) ?? [];
  const then = issuedStatusAt(agent, inForce, blockTime.getTime());
  const agentAct = typeof agent.evidence.act === "string" ? agent.evidence.act : null;
  return {
    agent_record: agentRecordId,
    agent_id: typeof agent.evidence.agent_id === "string" ? agent.evidence.agent_id : null,
    agent_status_at_payment: then === null || then === "pending_review" || then === "rejected" ? "not_yet_issued" : then,
    act_match: act === undefined ? "unknown" : act === agentAct,
    attribution: (await agentWalletAddresses(db, agentRecordId, now)).has(tx.from.toLowerCase()) ? "agent_wallet" : "cited",
  };
}

/**
 * The addresses (lower case) of the agent's wallets whose wallet_ownership records are active at
 * `now`. A link of role `agent_wallet_<n>` is only ever made to a wallet_ownership record (the
 * agent's check refuses any other: agentWalletProblem), so no claim-type filter is needed here —
 * and this module stays below the claim registry.
 */
async function agentWalletAddresses(db: DbOrTx, agentRecordId: string, now: Date): Promise<Set<string>> {
  const rows = await db
    .select({ subject: records.subject, status: records.status, expiresAt: records.expiresAt, statusChangedAt: records.statusChangedAt })
    .from(recordLinks)
    .innerJoin(records, eq(records.id, recordLinks.targetId))
    .where(and(eq(recordLinks.recordId, agentRecordId), like(recordLinks.role, "agent\\_wallet\\_%")));
  return new Set(rows
    .filter((r) => effectiveStatus(r, now.getTime()).status === "active")
    .map((r) => r.subject.trim().toLowerCase()));
}
